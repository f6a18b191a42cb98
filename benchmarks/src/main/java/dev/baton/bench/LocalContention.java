package dev.baton.bench;

import dev.baton.bench.ContendedSlices.Tally;
import dev.baton.bench.ContendedSlices.Turn;
import dev.baton.framework.BatonClient;
import dev.baton.recipes.lock.InterProcessMutex;
import dev.baton.framework.contention.SharedTicket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.apache.curator.framework.CuratorFramework;

/**
 * Local contention: eight threads of one client on one lock ([17] section 2). Curator's mutex
 * (one {@code CuratorFramework}, one mutex object shared by the threads: each thread's acquire
 * creates a node and waits for ZooKeeper to hand it the lock), Baton's mutex used the same way,
 * and Baton's mutex in the {@link SharedTicket} mode with its default limits (the threads share
 * one node and hand the lock on in memory). Slices as in {@link LockBenchmark}'s crowds, the
 * parties taking turns. A fourth party measures the fairness bound: the same eight shared-ticket
 * threads and one thread of another client with a default mutex on the same lock, whose waits
 * are counted apart.
 */
final class LocalContention {
    static final int THREADS = 8;
    private static final ContendedSlices CROWD = new ContendedSlices("local-", 2, Duration.ofMillis(300), Duration.ofMillis(2_500));

    private LocalContention() {
    }

    static void run(String connect, int slices, Requests requests) throws Exception {
        CuratorFramework curator = Clients.curator(connect);
        BatonClient baton = Clients.baton(connect);
        BatonClient batonShared = Clients.baton(connect);
        BatonClient remote = Clients.baton(connect);
        try {
            var curatorMutex = new org.apache.curator.framework.recipes.locks.InterProcessMutex(curator, "/bench-curator-local");
            InterProcessMutex plain = new InterProcessMutex(baton, "/bench-baton-local");
            InterProcessMutex shared = new InterProcessMutex(batonShared, "/bench-shared-local", SharedTicket.defaults());
            List<Supplier<Turn>> curatorTurns = threads(new Turn(0, curatorMutex::acquire, curatorMutex::release));
            List<Supplier<Turn>> plainTurns = threads(new Turn(0, plain::acquire, plain::release));
            List<Supplier<Turn>> sharedTurns = threads(new Turn(0, shared::acquire, shared::release));
            InterProcessMutex mixedShared = new InterProcessMutex(batonShared, "/bench-mixed-local", SharedTicket.defaults());
            InterProcessMutex mixedRemote = new InterProcessMutex(remote, "/bench-mixed-local");
            List<Supplier<Turn>> mixedTurns = threads(new Turn(0, mixedShared::acquire, mixedShared::release));
            Turn remoteTurn = new Turn(1, mixedRemote::acquire, mixedRemote::release);
            mixedTurns.add(() -> remoteTurn);
            List<Tally> tallies = CROWD.rotate(slices,
                List.of(round -> curatorTurns, round -> plainTurns, round -> sharedTurns, round -> mixedTurns));
            Tally c = tallies.get(0);
            Tally p = tallies.get(1);
            Tally s = tallies.get(2);
            System.out.println();
            System.out.printf("%d threads of one client contending for one lock%n", THREADS);
            System.out.printf("  %-46s %12s %12s %12s%n", "", "acquires/s", "wait p50 ms", "wait p99 ms");
            line("Curator InterProcessMutex", c, null);
            line("Baton InterProcessMutex", p, c);
            line("Baton InterProcessMutex, SharedTicket", s, c);
            System.out.printf("  shared/Curator: %.1fx acquisitions/s (median ratio %.1f); shared/Baton default: %.1fx%n",
                s.perSecond() / c.perSecond(), s.medianRatio(c), s.perSecond() / p.perSecond());
            Tally m = tallies.get(3);
            System.out.printf("  fairness: %d SharedTicket threads and 1 thread of another client (default mutex): %.0f acquires/s;"
                + " the other client's wait p50 %.2f ms, p99 %.2f ms, max %.2f ms (defaults: %d hand-offs or %d ms once it waits)%n",
                THREADS, m.perSecond(), m.waits(1).median(), m.waits(1).percentile(99), m.waits(1).percentile(100),
                SharedTicket.DEFAULT_HAND_OFF_LIMIT, SharedTicket.DEFAULT_TENURE_LIMIT.toMillis());
            System.out.printf("  requests per acquisition, %d threads (%d acquisitions each, counted at the servers):%n",
                THREADS, LockBenchmark.COUNTED);
            List<String> names = List.of("Curator InterProcessMutex", "Baton InterProcessMutex", "Baton InterProcessMutex, SharedTicket");
            List<List<Supplier<Turn>>> parties = List.of(curatorTurns, plainTurns, sharedTurns);
            List<String> namespaces = List.of("bench-curator-local", "bench-baton-local", "bench-shared-local");
            for (int who = 0; who < 3; who++) {
                Requests.Count before = requests.now(namespaces.get(who));
                long done = LockBenchmark.crowdRun(parties.get(who), LockBenchmark.COUNTED);
                System.out.println(Requests.line(names.get(who), requests.now(namespaces.get(who)).minus(before), (int) done));
            }
        } finally {
            remote.close();
            batonShared.close();
            baton.close();
            curator.close();
        }
    }

    private static List<Supplier<Turn>> threads(Turn turn) {
        List<Supplier<Turn>> all = new ArrayList<>();
        for (int i = 0; i < THREADS; i++) {
            all.add(() -> turn);
        }
        return all;
    }

    private static void line(String name, Tally tally, Tally curator) {
        Stats waits = tally.allWaits();
        System.out.printf("  %-46s %12.0f %12.2f %12.2f%s%n", name, tally.perSecond(), waits.median(), waits.percentile(99),
            curator == null ? "" : String.format("   %.1fx Curator", tally.perSecond() / curator.perSecond()));
    }
}
