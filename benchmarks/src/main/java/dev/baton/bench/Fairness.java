package dev.baton.bench;

import dev.baton.bench.ContendedSlices.Tally;
import dev.baton.bench.ContendedSlices.Turn;
import dev.baton.framework.BatonClient;
import dev.baton.recipes.lock.InterProcessMutex;
import dev.baton.recipes.lock.SharedTicket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import java.util.function.Supplier;

/**
 * How long other processes wait for a lock that eight threads of one client hammer in the
 * {@link SharedTicket} mode ([17] section 2, "fair to other processes"): the eight threads share
 * one node and hand the lock on in memory; 1, 2 or 3 other clients, one thread each with a
 * default mutex, take the same lock in a loop (acquire, release at once), and their waits, from
 * calling acquire to holding, are counted apart from the local threads'. Each crowd runs with the
 * default limits and with a tighter and a looser pair, and once with the eight threads in the
 * default mode (a node each) as the reference a remote waiter has without the mode.
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar locks [slices] fairness [--lan 0,0.5ms]};
 * every party runs {@code slices} counted 2.5 s slices, the parties taking turns as in
 * {@link LockBenchmark}.
 */
final class Fairness {
    private static final ContendedSlices CROWD = new ContendedSlices("fair-", 2, Duration.ofMillis(300), Duration.ofMillis(2_500));
    /** The limits measured: null is the default mode (a node per thread), the reference. */
    static final List<SharedTicket> SETTINGS = List.of(SharedTicket.defaults(), new SharedTicket(10, Duration.ofMillis(1)),
        new SharedTicket(1_000, Duration.ofMillis(50)));

    private Fairness() {
    }

    /** One measured crowd: the limits (null: default mode) and how many other clients wait. */
    private record Party(SharedTicket limits, int remotes, IntFunction<List<Supplier<Turn>>> turns) {
        String name() {
            return (limits == null ? "default mode (a node per thread)"
                : "SharedTicket(" + limits.handOffLimit() + ", " + limits.tenureLimit().toMillis() + " ms)")
                + (limits == SETTINGS.get(0) ? " = defaults" : "");
        }
    }

    static void run(String connect, int slices) throws Exception {
        BatonClient local = Clients.baton(connect);
        List<BatonClient> others = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                others.add(Clients.baton(connect));
            }
            List<SharedTicket> all = new ArrayList<>();
            all.add(null);
            all.addAll(SETTINGS);
            List<Party> parties = new ArrayList<>();
            int lock = 0;
            for (int remotes = 1; remotes <= 3; remotes++) {
                for (SharedTicket limits : all) {
                    String path = "/bench-fair-" + lock++;
                    InterProcessMutex mine = limits == null ? new InterProcessMutex(local, path)
                        : new InterProcessMutex(local, path, limits);
                    List<Supplier<Turn>> turns = new ArrayList<>();
                    Turn localTurn = new Turn(0, mine::acquire, mine::release);
                    for (int t = 0; t < LocalContention.THREADS; t++) {
                        turns.add(() -> localTurn);
                    }
                    for (int r = 0; r < remotes; r++) {
                        InterProcessMutex theirs = new InterProcessMutex(others.get(r), path);
                        Turn remoteTurn = new Turn(1, theirs::acquire, theirs::release);
                        turns.add(() -> remoteTurn);
                    }
                    parties.add(new Party(limits, remotes, round -> turns));
                }
            }
            List<Tally> tallies = CROWD.rotate(slices, parties.stream().<IntFunction<List<Supplier<Turn>>>>map(Party::turns).toList());
            System.out.println();
            System.out.printf("fairness: %d threads of one client on one lock, and 1-3 other clients (one thread each, default mutex,"
                + " acquire and release in a loop)%n", LocalContention.THREADS);
            System.out.printf("  %-44s %7s %11s %11s %11s %11s %11s %12s %11s%n", "local threads' mode", "others", "local acq/s",
                "other acq/s", "other p50", "other p90", "other p99", "other max ms", "local p99");
            for (int i = 0; i < parties.size(); i++) {
                Party party = parties.get(i);
                Tally tally = tallies.get(i);
                Stats theirs = tally.waits(1);
                Stats ours = tally.waits(0);
                double seconds = tally.seconds();
                System.out.printf("  %-44s %7d %11.0f %11.0f %11.2f %11.2f %11.2f %12.2f %11.2f%n", party.name(), party.remotes(),
                    ours.count() / seconds, theirs.count() / seconds, theirs.median(), theirs.percentile(90), theirs.percentile(99),
                    theirs.max(), ours.percentile(99));
            }
        } finally {
            for (BatonClient other : others) {
                other.close();
            }
            local.close();
        }
    }
}
