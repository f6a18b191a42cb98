package dev.baton.bench;

import dev.baton.framework.BatonClient;
import dev.baton.framework.BatonObserver;
import dev.baton.recipes.transaction.Decision;
import dev.baton.recipes.transaction.PendingTransaction;
import dev.baton.recipes.transaction.Transaction;
import dev.baton.recipes.transaction.TransactionCoordinator;
import dev.baton.recipes.transaction.TransactionHandler;
import dev.baton.recipes.transaction.TransactionParticipant;
import dev.baton.recipes.transaction.Vote;
import dev.baton.server.EmbeddedEnsemble;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;

/**
 * Two-phase commit: Baton's recipe against the bare minimum of ZooKeeper writes the protocol
 * needs, for 3 and 5 participants, in one JVM on one three-server ensemble with
 * {@code forceSync(true)}. Curator has no two-phase-commit recipe, so there is no peer column.
 *
 * <p>The floor ("raw"): plain ZooKeeper clients, one per site, do the protocol's writes and
 * nothing else — the coordinator creates the transaction node, every participant creates its vote
 * (all at once, told in-process, so no watch or read is paid for), then the coordinator creates
 * the decision: N + 2 writes in three rounds. Baton adds what makes it survive crashes: the
 * registration check, the participants' watches and reads, the check of the votes in the
 * decision's write, the coordinator's watch of the decision, and after the decision each site's
 * acknowledgement and the clean-up (not in the latency, but in the throughput).
 *
 * <ol>
 *   <li>Decision latency: one transaction at a time, from the call to start until the
 *       coordinator has the decision (raw: until the decision's create returned); every
 *       participant votes commit at once. Baton and raw alternate round by round after a
 *       warm-up; p50 and p99 in ms, and the ratio Baton/raw.</li>
 *   <li>Throughput: {@value #IN_FLIGHT} coordinator threads each starting a transaction and
 *       waiting for its decision, for {@value #THROUGHPUT_SECONDS} s per side; transactions
 *       decided per second, and the ratio raw/Baton. Baton's line also shows its requests per
 *       transaction: every attempt its clients sent (coordinator and participants) during the
 *       phase, over the transactions decided in it (the acknowledgements and clean-up of the
 *       last ones fall after it, those of the latency phase's last one inside: about even).</li>
 * </ol>
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar transactions [rounds]} (default 200).
 */
public final class TransactionBenchmark {
    private static final int WARMUP_ROUNDS = 30;
    private static final int IN_FLIGHT = 8;
    private static final int THROUGHPUT_SECONDS = 5;
    private static final Duration DEADLINE = Duration.ofSeconds(30);
    private static final byte[] PAYLOAD = new byte[64];

    private TransactionBenchmark() {
    }

    /**
     * Runs the benchmark.
     *
     * @param args optionally the number of measured rounds per side (default 200)
     * @throws Exception if ZooKeeper fails (the plain client's methods throw checked exceptions)
     */
    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        try (EmbeddedEnsemble ensemble = EmbeddedEnsemble.builder().nodes(3).forceSync(true).build()) {
            ensemble.start();
            String connect = ensemble.connectString();
            System.out.printf("two-phase commit, 3 servers (forceSync), every participant votes commit at once, %d-byte payload%n",
                PAYLOAD.length);
            System.out.printf("%-26s %10s %10s %14s %14s%n", "", "p50 ms", "p99 ms", "decided/s", "requests/tx");
            for (int n : new int[] {3, 5}) {
                compare(connect, n, rounds);
            }
        }
    }

    private static void compare(String connect, int n, int rounds) throws Exception {
        List<BatonClient> batonClients = new ArrayList<>();
        List<TransactionParticipant> participants = new ArrayList<>();
        List<ZooKeeper> raw = new ArrayList<>();
        AtomicLong requests = new AtomicLong();
        BatonObserver counter = new BatonObserver() {
            @Override
            public void requestCompleted(String operation, long nanos, boolean succeeded) {
                requests.incrementAndGet();
            }
        };
        String folder = "/bench-tx-" + n;
        String rawFolder = "/bench-raw-tx-" + n;
        try {
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                BatonClient c = Clients.baton(connect);
                c.addObserver(counter);
                batonClients.add(c);
                TransactionParticipant p = TransactionParticipant.builder(c, folder, "p" + i, COMMIT).build();
                p.start();
                participants.add(p);
                ids.add("p" + i);
            }
            BatonClient coordinatorClient = Clients.baton(connect);
            coordinatorClient.addObserver(counter);
            batonClients.add(coordinatorClient);
            TransactionCoordinator coordinator = TransactionCoordinator.builder(coordinatorClient, folder).build();
            for (int i = 0; i <= n; i++) {
                raw.add(Clients.raw(connect));
            }
            Clients.folder(raw.get(0), rawFolder);

            List<Double> baton = new ArrayList<>();
            List<Double> floor = new ArrayList<>();
            for (int r = 0; r < WARMUP_ROUNDS + rounds; r++) {
                double b = batonOnce(coordinator, ids);
                double f = rawOnce(raw, rawFolder);
                if (r >= WARMUP_ROUNDS) {
                    baton.add(b);
                    floor.add(f);
                }
            }
            long requestsBefore = requests.get();
            double batonRate = throughput(() -> batonOnce(coordinator, ids));
            double requestsPerTx = (requests.get() - requestsBefore) / (batonRate * THROUGHPUT_SECONDS);
            double rawRate = throughput(() -> rawOnce(raw, rawFolder));
            Stats sb = Stats.of(baton);
            Stats sf = Stats.of(floor);
            System.out.printf("%-26s %10.2f %10.2f %14.0f %14.1f%n", n + " participants, Baton", sb.median(), sb.percentile(99), batonRate,
                requestsPerTx);
            System.out.printf("%-26s %10.2f %10.2f %14.0f%n", n + " participants, raw floor", sf.median(), sf.percentile(99), rawRate);
            System.out.printf("%-26s %10.1f %10.1f %14.1f  (latency Baton/raw, throughput raw/Baton)%n", "  ratio",
                sb.median() / sf.median(), sb.percentile(99) / sf.percentile(99), rawRate / batonRate);
        } finally {
            participants.forEach(TransactionParticipant::close);
            batonClients.forEach(BatonClient::close);
            raw.forEach(Clients::closeQuietly);
        }
    }

    /** One Baton transaction, start to decision: its latency in ms. */
    private static double batonOnce(TransactionCoordinator coordinator, List<String> ids) throws InterruptedException {
        long t0 = System.nanoTime();
        PendingTransaction tx = coordinator.start(ids, PAYLOAD, DEADLINE);
        Decision d = tx.await(DEADLINE.plusSeconds(10));
        if (d == null || !d.isCommit()) {
            throw new IllegalStateException("transaction " + tx.id() + " did not commit: " + d);
        }
        return (System.nanoTime() - t0) / 1e6;
    }

    /** The protocol's writes and nothing else: transaction node, every vote at once, decision. Latency in ms. */
    private static double rawOnce(List<ZooKeeper> raw, String folder) throws KeeperException, InterruptedException {
        long t0 = System.nanoTime();
        String tx = raw.get(0).create(folder + "/tx-", PAYLOAD, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT_SEQUENTIAL);
        List<CompletableFuture<Void>> votes = new ArrayList<>();
        for (int i = 1; i < raw.size(); i++) {
            CompletableFuture<Void> vote = new CompletableFuture<>();
            raw.get(i).create(tx + "/vote-p" + i, "commit".getBytes(), ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT,
                (rc, path, ctx, name) -> {
                    if (rc == 0) {
                        vote.complete(null);
                    } else {
                        vote.completeExceptionally(KeeperException.create(KeeperException.Code.get(rc), path));
                    }
                }, null);
            votes.add(vote);
        }
        CompletableFuture.allOf(votes.toArray(CompletableFuture[]::new)).join();
        raw.get(0).create(tx + "/decision", "commit".getBytes(), ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        return (System.nanoTime() - t0) / 1e6;
    }

    /** One transaction, start to decision. */
    @FunctionalInterface
    private interface Once {
        double run() throws Exception;
    }

    /** Transactions decided per second with {@link #IN_FLIGHT} threads for {@link #THROUGHPUT_SECONDS} s. */
    private static double throughput(Once once) throws InterruptedException {
        AtomicLong done = new AtomicLong();
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(THROUGHPUT_SECONDS);
        List<Thread> threads = new ArrayList<>();
        List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
        for (int i = 0; i < IN_FLIGHT; i++) {
            Thread t = new Thread(() -> {
                try {
                    while (System.nanoTime() - end < 0) {
                        once.run();
                        done.incrementAndGet();
                    }
                } catch (Exception e) {
                    failures.add(e);
                }
            });
            t.start();
            threads.add(t);
        }
        for (Thread t : threads) {
            t.join();
        }
        if (!failures.isEmpty()) {
            throw new IllegalStateException("a transaction failed during the throughput run", failures.get(0));
        }
        return done.get() / (double) THROUGHPUT_SECONDS;
    }

    /** Votes commit at once, and does nothing on the outcome. */
    private static final TransactionHandler COMMIT = new TransactionHandler() {
        @Override
        public Vote prepare(Transaction tx) {
            return Vote.COMMIT;
        }

        @Override
        public void commit(Transaction tx) {
        }

        @Override
        public void abort(Transaction tx) {
        }
    };
}
