package dev.baton.cli;

import dev.baton.framework.BatonClient;
import dev.baton.recipes.barrier.DistributedDoubleBarrier;
import dev.baton.recipes.discovery.RoundRobinStrategy;
import dev.baton.recipes.discovery.ServiceDiscovery;
import dev.baton.recipes.discovery.ServiceDiscoveryBuilder;
import dev.baton.recipes.discovery.ServiceInstance;
import dev.baton.recipes.discovery.ServiceProvider;
import dev.baton.recipes.election.LeaderLatch;
import dev.baton.recipes.election.LeaderLatchListener;
import dev.baton.recipes.lock.InterProcessMutex;
import dev.baton.recipes.lock.LockLease;
import dev.baton.recipes.queue.DistributedQueue;
import dev.baton.recipes.queue.QueueBuilder;
import dev.baton.recipes.queue.QueueSerializer;
import dev.baton.server.EmbeddedEnsemble;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code baton demo}: a tour of Baton on a real three-server ensemble started for the occasion,
 * printing what happens at each step. Nothing to install; about half a minute.
 */
@Command(name = "demo",
    description = {"A guided tour on an ensemble started for it.",
        "Start a 3-server ZooKeeper ensemble in this process and walk through locks with fencing tokens, leader failover, "
            + "client-side load balancing, a queue and a barrier, printing what happens."})
final class DemoCommand implements Callable<Integer> {
    private static final Duration WAIT = Duration.ofSeconds(30);
    /** How long each queue job "works". */
    private static final Duration JOB_WORK = Duration.ofMillis(2);
    private static final QueueSerializer<String> TEXT = QueueSerializer.utf8();

    @Spec
    CommandSpec spec;
    private PrintWriter out;
    private final List<BatonClient> clients = new ArrayList<>();
    /** The demo's workers block (they wait for locks and barriers): they get threads of their own. */
    private final java.util.concurrent.ExecutorService workers = java.util.concurrent.Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "demo-worker");
        t.setDaemon(true);
        return t;
    });

    @Override
    public Integer call() throws InterruptedException, ExecutionException, TimeoutException {
        out = spec.commandLine().getOut();
        long start = System.nanoTime();
        say("Baton demo: coordination recipes on Apache ZooKeeper.");
        try (EmbeddedEnsemble ensemble = EmbeddedEnsemble.builder().nodes(3).build()) {
            ensemble.start();
            try {
                tour(ensemble);
            } finally {
                // clients first: their sessions end cleanly while the servers still run
                clients.forEach(BatonClient::close);
                workers.shutdownNow();
            }
        }
        say("");
        say(String.format("Done in %.1f s. Next: ./baton --help, and docs/ for every recipe's guarantees.", (System.nanoTime() - start) / 1e9));
        return ExitCodes.OK;
    }

    private void tour(EmbeddedEnsemble ensemble) throws InterruptedException, ExecutionException, TimeoutException {
        {
            say("");
            say("1. A real ZooKeeper ensemble: three servers, started in this process");
            say("   connect string " + ensemble.connectString() + "; ZooKeeper leader is server " + ensemble.leaderId());
            for (int i = 0; i < 3; i++) {
                clients.add(client(ensemble));
            }
            locks();
            election(ensemble);
            discovery();
            queue();
            barrier();
        }
    }

    private void locks() throws InterruptedException, ExecutionException, TimeoutException {
        say("");
        say("2. Locks with fencing tokens: three workers contend for /demo/lock; each hold carries a larger token");
        say("   (a token is the zxid of the transaction that created the holder's node: ZooKeeper's epoch times 2^32");
        say("   plus a counter, hence the large numbers; it only grows, so a store can refuse a holder's stale write)");
        FencedStore store = new FencedStore();
        List<Long> tokens = new java.util.concurrent.CopyOnWriteArrayList<>();
        List<CompletableFuture<Void>> running = new ArrayList<>();
        for (int w = 0; w < 3; w++) {
            int worker = w;
            InterProcessMutex mutex = new InterProcessMutex(clients.get(w), "/demo/lock");
            running.add(CompletableFuture.runAsync(() -> {
                for (int round = 0; round < 2; round++) {
                    try (LockLease lease = mutex.acquireLease(WAIT)) {
                        long token = lease.fencingToken();
                        tokens.add(token);
                        say("   worker-" + worker + " holds the lock, fencing token " + token + "; its write is "
                            + (store.write(token) ? "accepted" : "REJECTED"));
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
            }, workers));
        }
        CompletableFuture.allOf(running.toArray(CompletableFuture[]::new)).get(WAIT.toSeconds(), TimeUnit.SECONDS);
        long stale = tokens.get(0);
        say("   the first holder wakes from a long pause and writes with its old token " + stale + ": "
            + (store.write(stale) ? "accepted" : "REJECTED") + " (the store has seen " + store.highest() + ")");
    }

    private void election(EmbeddedEnsemble ensemble) throws InterruptedException {
        say("");
        say("3. Leader election: three participants; the ZooKeeper leader server is killed, then the Baton leader steps down");
        Map<String, Long> terms = new ConcurrentHashMap<>();
        CountDownLatch firstLeader = new CountDownLatch(1);
        List<LeaderLatch> latches = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            String id = "node-" + i;
            LeaderLatch latch = new LeaderLatch(clients.get(i), "/demo/election", id);
            latch.addListener(new LeaderLatchListener() {
                @Override
                public void isLeader() {
                }

                @Override
                public void isLeader(long token) {
                    terms.put(id, token);
                    say("   " + id + " is leader, term " + token);
                    firstLeader.countDown();
                }

                @Override
                public void notLeader() {
                    say("   " + id + " is no longer leader");
                }
            });
            latch.start();
            latches.add(latch);
        }
        firstLeader.await(WAIT.toSeconds(), TimeUnit.SECONDS);
        int zkLeader = ensemble.leaderId();
        say("   killing ZooKeeper server " + zkLeader + " (the ZooKeeper leader); waiting for the two others to elect a new one...");
        long killed = System.nanoTime();
        ensemble.kill(zkLeader);
        int newLeader = ensemble.leaderId();
        say(String.format("   they elected server %d, %.1f s after the kill; clients moved over and kept their sessions", newLeader,
            (System.nanoTime() - killed) / 1e9));
        LeaderLatch leader = leaderAmong(latches);
        long before = System.nanoTime();
        String stepping = leader.participantId();
        say("   " + stepping + " closes (a graceful step-down)...");
        leader.close();
        LeaderLatch next = leaderAmong(latches);
        awaitAnnounced(terms, next); // its "is leader" line first, then the failover line
        say(String.format("   failover to %s in %.1f ms, with a larger term %d", next.participantId(),
            (System.nanoTime() - before) / 1e6, next.leadershipToken()));
        latches.forEach(l -> l.close(LeaderLatch.CloseMode.SILENT));
        ensemble.restart(zkLeader);
    }

    /** Waits (up to {@link #WAIT}) until {@code leader}'s listener has announced its term. */
    private static void awaitAnnounced(Map<String, Long> terms, LeaderLatch leader) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!Long.valueOf(leader.leadershipToken()).equals(terms.get(leader.participantId())) && System.nanoTime() < deadline) {
            java.util.concurrent.locks.LockSupport.parkNanos(100_000);
        }
    }

    /** Whichever latch leads, as soon as one does (a re-election after a ZooKeeper failover takes a moment). */
    private static LeaderLatch leaderAmong(List<LeaderLatch> latches) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            for (LeaderLatch latch : latches) {
                if (latch.hasLeadership()) {
                    return latch;
                }
            }
            java.util.concurrent.locks.LockSupport.parkNanos(100_000);
        }
        throw new CliExit(ExitCodes.SOFTWARE, "no participant became leader within " + WAIT);
    }

    private void discovery() throws InterruptedException {
        say("");
        say("4. Service discovery as a client-side load balancer: three 'orders' instances, round robin from a local cache");
        List<ServiceDiscovery<String>> registrants = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            ServiceInstance<String> instance = ServiceInstance.<String>builder().name("orders").id("orders-" + i)
                .address("10.0.0." + (i + 1)).port(8080).build();
            ServiceDiscovery<String> d = ServiceDiscoveryBuilder.builder(String.class).client(clients.get(i))
                .basePath("/demo/services").thisInstance(instance).build();
            d.start();
            registrants.add(d);
        }
        ServiceDiscovery<String> caller = ServiceDiscoveryBuilder.builder(String.class).client(clients.get(0))
            .basePath("/demo/services").build();
        caller.start();
        try (ServiceProvider<String> provider = caller.serviceProviderBuilder().serviceName("orders")
                 .providerStrategy(new RoundRobinStrategy<>()).build()) {
            provider.start();
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (provider.getAllInstances().size() < 3 && System.nanoTime() < deadline) {
                java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
            }
            Map<String, Integer> calls = new TreeMap<>();
            for (int call = 0; call < 300; call++) {
                calls.merge(provider.getInstance().address(), 1, Integer::sum);
            }
            say("   300 calls spread over the instances: " + calls);
        } finally {
            caller.close();
            registrants.forEach(ServiceDiscovery::close);
        }
    }

    private void queue() throws InterruptedException {
        say("");
        say("5. A queue: 200 jobs put in one transaction, drained by two consumers, each job taken once");
        say("   (a consumer takes the next job whenever it is free, so the split follows who is free, not a fixed share)");
        Map<String, Integer> byConsumer = new ConcurrentHashMap<>();
        CountDownLatch drained = new CountDownLatch(200);
        List<DistributedQueue<String>> consumers = new ArrayList<>();
        long start = System.nanoTime();
        for (int c = 1; c <= 2; c++) {
            String name = "consumer-" + c;
            DistributedQueue<String> q = QueueBuilder.<String>builder(clients.get(c), job -> {
                Thread.sleep(JOB_WORK.toMillis()); // each job is some work: the other consumer takes the next meanwhile
                byConsumer.merge(name, 1, Integer::sum);
                drained.countDown();
            }, TEXT, "/demo/queue").lockPath("/demo/queue-locks").buildQueue();
            q.start();
            consumers.add(q);
        }
        DistributedQueue<String> producer = QueueBuilder.<String>builder(clients.get(0), null, TEXT, "/demo/queue").buildQueue();
        producer.start();
        List<String> jobs = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            jobs.add("job-" + i);
        }
        producer.putMulti(jobs);
        drained.await(WAIT.toSeconds(), TimeUnit.SECONDS);
        say(String.format("   drained in %.0f ms: %s", (System.nanoTime() - start) / 1e6, new TreeMap<>(byConsumer)));
        producer.close();
        consumers.forEach(DistributedQueue::close);
    }

    private void barrier() throws InterruptedException, ExecutionException, TimeoutException {
        say("");
        say("6. A double barrier: three workers arrive at different times; nobody starts until all three are in");
        List<CompletableFuture<Void>> running = new ArrayList<>();
        long start = System.nanoTime();
        for (int w = 0; w < 3; w++) {
            int worker = w;
            DistributedDoubleBarrier barrier = new DistributedDoubleBarrier(clients.get(w), "/demo/barrier", 3);
            running.add(CompletableFuture.runAsync(() -> {
                try {
                    say(String.format("   worker-%d arrives at %.0f ms", worker, (System.nanoTime() - start) / 1e6));
                    barrier.enter(WAIT);
                    say(String.format("   worker-%d released at %.0f ms", worker, (System.nanoTime() - start) / 1e6));
                    barrier.leave(WAIT);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, CompletableFuture.delayedExecutor(300L * w, TimeUnit.MILLISECONDS, workers)));
        }
        CompletableFuture.allOf(running.toArray(CompletableFuture[]::new)).get(WAIT.toSeconds(), TimeUnit.SECONDS);
    }

    /** A resource that accepts a write only with a token at least as large as any it has seen: fencing. */
    private static final class FencedStore {
        private long highest = Long.MIN_VALUE;

        synchronized boolean write(long token) {
            if (token < highest) {
                return false;
            }
            highest = token;
            return true;
        }

        synchronized long highest() {
            return highest;
        }
    }

    private BatonClient client(EmbeddedEnsemble ensemble) throws InterruptedException {
        BatonClient client = BatonClient.builder().connectString(ensemble.connectString()).sessionTimeout(Duration.ofSeconds(10)).build();
        client.start();
        if (!client.blockUntilConnected(WAIT)) {
            throw new CliExit(ExitCodes.SOFTWARE, "the demo client could not connect to its own ensemble");
        }
        return client;
    }

    private synchronized void say(String line) {
        out.println(line);
        out.flush();
    }
}
