package dev.baton.bench;

import dev.baton.bench.ContendedSlices.Tally;
import dev.baton.bench.ContendedSlices.Turn;
import dev.baton.framework.BatonClient;
import dev.baton.recipes.lock.InterProcessMutex;
import dev.baton.framework.contention.SharedTicket;
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
 *
 * <p>A second table says what the other clients' long waits (over {@link #LONG} ms, warm-up
 * slices included) are made of: how many overlap a stall of the whole process of at least
 * {@link #STALL} ms, seen by a {@link Stalls} meter thread that did not run for that long, and
 * which share of their time such stalls take.
 */
final class Fairness {
    private static final ContendedSlices CROWD = new ContendedSlices("fair-", 2, Duration.ofMillis(300), Duration.ofMillis(2_500));
    /** The limits measured: null is the default mode (a node per thread), the reference. */
    static final List<SharedTicket> SETTINGS = List.of(SharedTicket.defaults(), new SharedTicket(10, Duration.ofMillis(1)),
        new SharedTicket(1_000, Duration.ofMillis(50)));

    /** A wait longer than this, in ms, is a long one: above the defaults' bound at 0.5 ms one way. */
    static final double LONG = 50;
    /** A stall of the meter thread at least this long, in ms, counts. */
    static final long STALL = 10;

    /** The start and end of another client's waits, on the {@link System#nanoTime()} clock. */
    private record Wait(long from, long to) {
    }

    private Fairness() {
    }

    /** One measured crowd: the limits (null: default mode) and how many other clients wait. */
    private record Party(SharedTicket limits, int remotes, IntFunction<List<Supplier<Turn>>> turns, List<Wait> waits) {
        String name() {
            return (limits == null ? "default mode (a node per thread)"
                : "SharedTicket(" + limits.handOffLimit() + ", " + limits.tenureLimit().toMillis() + " ms)")
                + (limits == SETTINGS.get(0) ? " = defaults" : "");
        }
    }

    static void run(String connect, int slices) throws Exception {
        Stalls stalls = Stalls.start();
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
                    List<Wait> waits = new ArrayList<>();
                    for (int r = 0; r < remotes; r++) {
                        InterProcessMutex theirs = new InterProcessMutex(others.get(r), path);
                        Turn remoteTurn = new Turn(1, () -> {
                            long from = System.nanoTime();
                            theirs.acquire();
                            long to = System.nanoTime();
                            synchronized (waits) {
                                waits.add(new Wait(from, to));
                            }
                        }, theirs::release);
                        turns.add(() -> remoteTurn);
                    }
                    parties.add(new Party(limits, remotes, round -> turns, waits));
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
            System.out.printf("%nother clients' waits over %.0f ms (warm-up slices too): how many overlap a stall of the whole process"
                + " of >= %d ms (a meter thread that did not run), and the share of their time in such stalls%n", LONG, STALL);
            System.out.printf("  %-44s %7s %11s %11s %13s %13s%n", "local threads' mode", "others", "waits", "long waits",
                "with a stall", "stalled time");
            for (Party party : parties) {
                List<Wait> waits;
                synchronized (party.waits()) {
                    waits = List.copyOf(party.waits());
                }
                long longNanos = (long) (LONG * 1e6);
                long minStall = STALL * 1_000_000L;
                int longWaits = 0;
                int withStall = 0;
                long longTime = 0;
                long stalledTime = 0;
                for (Wait wait : waits) {
                    if (wait.to() - wait.from() > longNanos) {
                        longWaits++;
                        longTime += wait.to() - wait.from();
                        long stalled = stalls.stalledWithin(wait.from(), wait.to(), minStall);
                        stalledTime += stalled;
                        if (stalled > 0) {
                            withStall++;
                        }
                    }
                }
                System.out.printf("  %-44s %7d %11d %11d %13d %12.0f%%%n", party.name(), party.remotes(), waits.size(), longWaits,
                    withStall, longTime == 0 ? 0.0 : 100.0 * stalledTime / longTime);
            }
        } finally {
            for (BatonClient other : others) {
                other.close();
            }
            local.close();
        }
    }
}
