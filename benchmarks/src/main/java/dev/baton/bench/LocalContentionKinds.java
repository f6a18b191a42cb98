package dev.baton.bench;

import dev.baton.bench.ContendedSlices.Tally;
import dev.baton.bench.ContendedSlices.Turn;
import dev.baton.framework.BatonClient;
import dev.baton.recipes.lock.InterProcessSemaphoreV2;
import dev.baton.recipes.lock.Lease;
import dev.baton.framework.contention.SharedTicket;
import dev.baton.recipes.rwlock.InterProcessReadWriteLock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;
import org.apache.curator.framework.CuratorFramework;

/**
 * Local contention on the other locks ([17] section 2): eight threads of one client on one
 * semaphore of two leases, on one read/write lock's write side, and on one read/write lock with
 * 90% reads and 10% writes. Each table: Curator 5.9 (one {@code CuratorFramework}, one object shared
 * by the threads), Baton's default mode used the same way, and Baton's {@link SharedTicket} mode with
 * its default limits. Slices as in {@link LocalContention}, the parties taking turns.
 */
final class LocalContentionKinds {
    private static final int THREADS = LocalContention.THREADS;
    private static final int LEASES = 2;
    private static final ContendedSlices CROWD = new ContendedSlices("kinds-", 2, Duration.ofMillis(300), Duration.ofMillis(2_500));

    private LocalContentionKinds() {
    }

    static void run(String connect, int slices) throws Exception {
        CuratorFramework curator = Clients.curator(connect);
        BatonClient baton = Clients.baton(connect);
        BatonClient batonShared = Clients.baton(connect);
        try {
            semaphore(curator, baton, batonShared, slices);
            writeSide(curator, baton, batonShared, slices);
            readHeavy(curator, baton, batonShared, slices);
        } finally {
            batonShared.close();
            baton.close();
            curator.close();
        }
    }

    private static void semaphore(CuratorFramework curator, BatonClient baton, BatonClient batonShared, int slices) throws Exception {
        var theirs = new org.apache.curator.framework.recipes.locks.InterProcessSemaphoreV2(curator, "/bench-kinds-sem-curator", LEASES);
        ThreadLocal<org.apache.curator.framework.recipes.locks.Lease> theirLease = new ThreadLocal<>();
        InterProcessSemaphoreV2 plain = new InterProcessSemaphoreV2(baton, "/bench-kinds-sem-baton", LEASES);
        InterProcessSemaphoreV2 shared = new InterProcessSemaphoreV2(batonShared, "/bench-kinds-sem-shared", LEASES, SharedTicket.defaults());
        ThreadLocal<Lease> plainLease = new ThreadLocal<>();
        ThreadLocal<Lease> sharedLease = new ThreadLocal<>();
        table(String.format("%d threads of one client on one semaphore of %d leases", THREADS, LEASES), "InterProcessSemaphoreV2", slices,
            () -> new Turn(0, () -> theirLease.set(theirs.acquire()), () -> theirs.returnLease(theirLease.get())),
            () -> new Turn(0, () -> plainLease.set(plain.acquire()), () -> plainLease.get().close()),
            () -> new Turn(0, () -> sharedLease.set(shared.acquire()), () -> sharedLease.get().close()));
    }

    private static void writeSide(CuratorFramework curator, BatonClient baton, BatonClient batonShared, int slices) throws Exception {
        var theirs = new org.apache.curator.framework.recipes.locks.InterProcessReadWriteLock(curator, "/bench-kinds-w-curator").writeLock();
        var plain = new InterProcessReadWriteLock(baton, "/bench-kinds-w-baton").writeLock();
        var shared = new InterProcessReadWriteLock(batonShared, "/bench-kinds-w-shared", SharedTicket.defaults()).writeLock();
        table(String.format("%d threads of one client on one read/write lock's write side", THREADS), "write lock", slices,
            () -> new Turn(0, theirs::acquire, theirs::release),
            () -> new Turn(0, plain::acquire, plain::release),
            () -> new Turn(0, shared::acquire, shared::release));
    }

    private static void readHeavy(CuratorFramework curator, BatonClient baton, BatonClient batonShared, int slices) throws Exception {
        var theirs = new org.apache.curator.framework.recipes.locks.InterProcessReadWriteLock(curator, "/bench-kinds-rw-curator");
        var plain = new InterProcessReadWriteLock(baton, "/bench-kinds-rw-baton");
        var shared = new InterProcessReadWriteLock(batonShared, "/bench-kinds-rw-shared", SharedTicket.defaults());
        Turn theirRead = new Turn(0, theirs.readLock()::acquire, theirs.readLock()::release);
        Turn theirWrite = new Turn(1, theirs.writeLock()::acquire, theirs.writeLock()::release);
        Turn plainRead = new Turn(0, plain.readLock()::acquire, plain.readLock()::release);
        Turn plainWrite = new Turn(1, plain.writeLock()::acquire, plain.writeLock()::release);
        Turn sharedRead = new Turn(0, shared.readLock()::acquire, shared.readLock()::release);
        Turn sharedWrite = new Turn(1, shared.writeLock()::acquire, shared.writeLock()::release);
        Tally[] t = table(String.format("%d threads of one client on one read/write lock, 90%% reads / 10%% writes", THREADS),
            "read/write lock", slices, mix(theirRead, theirWrite), mix(plainRead, plainWrite), mix(sharedRead, sharedWrite));
        System.out.printf("  write waits p50/p99 ms: Curator %.2f/%.2f, Baton %.2f/%.2f, SharedTicket %.2f/%.2f%n",
            t[0].waits(1).median(), t[0].waits(1).percentile(99), t[1].waits(1).median(), t[1].waits(1).percentile(99),
            t[2].waits(1).median(), t[2].waits(1).percentile(99));
    }

    private static Supplier<Turn> mix(Turn read, Turn write) {
        return () -> ThreadLocalRandom.current().nextInt(10) == 0 ? write : read;
    }

    /** Runs the three parties in rotating slices and prints one table; {@return the tallies: Curator, Baton, SharedTicket} */
    private static Tally[] table(String title, String kind, int slices, Supplier<Turn> curatorTurn, Supplier<Turn> plainTurn,
                                 Supplier<Turn> sharedTurn) throws Exception {
        List<Tally> tallies = CROWD.rotate(slices, List.of(round -> threads(curatorTurn), round -> threads(plainTurn),
            round -> threads(sharedTurn)));
        Tally c = tallies.get(0);
        Tally p = tallies.get(1);
        Tally s = tallies.get(2);
        System.out.println();
        System.out.println(title);
        System.out.printf("  %-46s %12s %12s %12s%n", "", "acquires/s", "wait p50 ms", "wait p99 ms");
        line("Curator " + kind, c, null);
        line("Baton " + kind, p, c);
        line("Baton " + kind + ", SharedTicket", s, c);
        System.out.printf("  shared/Curator: %.1fx acquisitions/s (median ratio %.1f); shared/Baton default: %.1fx%n",
            s.perSecond() / c.perSecond(), s.medianRatio(c), s.perSecond() / p.perSecond());
        return new Tally[] {c, p, s};
    }

    private static List<Supplier<Turn>> threads(Supplier<Turn> turn) {
        List<Supplier<Turn>> all = new ArrayList<>();
        for (int i = 0; i < THREADS; i++) {
            all.add(turn);
        }
        return all;
    }

    private static void line(String name, Tally tally, Tally curator) {
        Stats waits = tally.allWaits();
        System.out.printf("  %-46s %12.0f %12.2f %12.2f%s%n", name, tally.perSecond(), waits.median(), waits.percentile(99),
            curator == null ? "" : String.format("   %.1fx Curator", tally.perSecond() / curator.perSecond()));
    }
}
