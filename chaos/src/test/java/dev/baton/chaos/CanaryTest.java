package dev.baton.chaos;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.framework.BatonClient;
import dev.baton.framework.NoNodeException;
import dev.baton.framework.NodeExistsException;
import dev.baton.framework.TransactionBuilder;
import dev.baton.framework.contention.Contention;
import dev.baton.framework.contention.ContentionRule;
import dev.baton.framework.contention.Decision;
import dev.baton.framework.contention.Grant;
import dev.baton.framework.contention.Hold;
import dev.baton.framework.contention.OwnershipLostException;
import dev.baton.framework.contention.Holding;
import dev.baton.recipes.queue.DistributedQueue;
import dev.baton.recipes.queue.QueueBuilder;
import dev.baton.recipes.rwlock.InterProcessReadWriteLock;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.EnsembleTest;
import dev.baton.test.Nemesis.Fault;
import dev.baton.test.SessionKiller;
import dev.baton.test.history.BoundedExclusion;
import dev.baton.test.history.QueueHistory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.Test;

/**
 * A checker without a canary is not trusted: each test here runs a deliberately broken variant of
 * a recipe through the same workload and the same checker as the real recipe's chaos test, and
 * asserts the checker catches it. One server is enough; the faults are only those a canary needs.
 */
@Paired
@EnsembleTest(nodes = 1)
class CanaryTest {
    private static final Duration SHORT = Duration.ofSeconds(3);
    /** Lets the first two in line hold: a lock (or election) that grants twice. */
    private static final ContentionRule FIRST_TWO =
        (line, mine) -> mine < 2 ? Decision.hold() : Decision.waitFor(line.get(mine - 2), false);

    EmbeddedEnsemble ensemble;

    private ChaosRun.Builder canary(String name, String... watch) {
        return ChaosRun.builder("canary-" + name, ensemble).faults(Fault.DELAY_CLIENT).duration(SHORT).watch(watch);
    }

    /** A grant over a hold; {@code signalsLoss} false makes a holder that never hears of its loss. */
    static Grant grant(Hold hold, boolean signalsLoss) {
        Hold shown = signalsLoss ? hold : new Hold() {
            @Override
            public long fencingToken() {
                return hold.fencingToken();
            }

            @Override
            public List<String> nodes() {
                return hold.nodes();
            }

            @Override
            public boolean isValid() {
                return true;
            }

            @Override
            public Optional<String> lossReason() {
                return Optional.empty();
            }

            @Override
            public void onLost(Runnable callback) {
                // the broken part: the loss is never told
            }

            @Override
            public TransactionBuilder guard(TransactionBuilder transaction) {
                return hold.guard(transaction);
            }

            @Override
            public boolean connected() {
                return hold.connected();
            }

            @Override
            public CompletableFuture<Void> delete() {
                return hold.delete();
            }
        };
        return new Grant(shown, "canary grant", g -> { }) { };
    }

    static LockChaosTest.Acquirer broken(BatonClient client, String path, ContentionRule rule, boolean signalsLoss) {
        Contention contention = Contention.of(client, path, "lock-", rule);
        return timeout -> {
            Holding hold = contention.acquireHoldBlocking(new byte[0], timeout);
            return hold == null ? null : grant(hold, signalsLoss);
        };
    }

    /**
     * The classic hand-written config watcher, which re-registers its one-shot watch after each
     * event but not after a session expiry, through the config store's workload and checker: it
     * must be caught ending stale. It is stale for good once its session is gone, so the watchers
     * get a few seconds to converge instead of the store's thirty.
     */
    @Test
    void aConfigWatcherThatLosesItsWatchWithItsSessionIsCaught() {
        String base = "/canary/config";
        assertThatThrownBy(() -> {
            try (ChaosRun run = canary("config", base).build()) {
                ConfigChaosTest.configWorkload(run, base, ConfigChaosTest::handWrittenWatcher, Duration.ofSeconds(3));
            }
        }).isInstanceOf(AssertionError.class).hasMessageContaining("watcher-2 ended stale");
    }

    @Test
    void aMutexThatLetsTwoHoldIsCaught() {
        String path = "/canary/mutex";
        assertThatThrownBy(() -> {
            try (ChaosRun run = canary("mutex", path).build()) {
                LockChaosTest.lockWorkload(run, path, i -> broken(run.client(i), path, FIRST_TWO, true),
                    LockChaosTest.standard(1), 20);
            }
        }).isInstanceOf(AssertionError.class).hasMessageContaining("double grant");
    }

    /**
     * A holder that never signals loss: its session is expired while it holds, and it holds on.
     * The expiry is driven by the acquisitions, not by a clock: each new acquisition has its
     * holder's session ended at once, and every hold lasts 1.5 s, so the holder goes on believing
     * for about a second after the servers deleted its node, twice the 500 ms bound. (A 700 ms
     * expiry timer over holds of 0 to 1.5 s, as before, let CI at 6bb06a6 end its 3 s run without
     * expiring anyone while they held: the canary went uncaught.)
     */
    @Test
    void aHolderThatNeverSignalsLossIsCaught() {
        String path = "/canary/no-loss-signal";
        assertThatThrownBy(() -> {
            try (ChaosRun run = canary("no-loss-signal", path).clients(3).duration(Duration.ofSeconds(5)).build()) {
                AtomicInteger holder = new AtomicInteger(-1);
                AtomicInteger acquisitions = new AtomicInteger();
                AtomicInteger expiredUpTo = new AtomicInteger();
                // the fault this canary needs: end the session of whoever just acquired, while it holds
                run.workers.start("expirer", 1, w -> {
                    run.workers.pace(Duration.ofMillis(20));
                    int seen = acquisitions.get();
                    int h = holder.get();
                    if (h < 0 || expiredUpTo.getAndSet(seen) == seen) {
                        return false;
                    }
                    SessionKiller.expire(run.client(h), ensemble.connectString(), Duration.ofSeconds(10));
                    return true;
                });
                LockChaosTest.lockWorkload(run, path, i -> {
                    LockChaosTest.Acquirer inner = broken(run.client(i), path, ContentionRule.mutex(), false);
                    return timeout -> {
                        Grant g = inner.acquire(timeout);
                        if (g != null) {
                            holder.set(i);
                            acquisitions.incrementAndGet();
                        }
                        return g;
                    };
                }, LockChaosTest.standard(1), 1500, 1500);
            }
        }).isInstanceOf(AssertionError.class).hasMessageContaining("after that deletion");
    }

    /**
     * The process chaos test's judge ({@link ProcessHistory}) on a real run: its workers take a
     * mutex whose loss signal never fires ({@link #grant} with {@code signalsLoss} false: no
     * {@code onLost}, {@code isValid()} always true), and the session of whoever holds is ended
     * soon after each acquisition. A holder writes on to the end of its 1.5 s batch, believing
     * long past the servers' deletion of its node: the loss check must fail. The workers run on
     * threads of the test — the judge and the worker are the ones the worker JVMs use, and a
     * thread's session can be ended at a chosen moment.
     */
    @Test
    void aProcessWorkerWhoseMutexNeverSignalsLossIsCaught() throws Exception {
        String path = "/canary/process-no-loss-signal";
        ProcessHistory history = new ProcessHistory();
        FencedStore store = new FencedStore();
        ProcessHistory.Judgement judged;
        try (ChaosRun run = canary("process-no-loss-signal", path).clients(3).build()) {
            List<MutexWorker> workers = new ArrayList<>();
            for (int i = 0; i < run.clients.size(); i++) {
                workers.add(ProcessChaosTest.threadWorker("canary-" + i, run.client(i),
                    broken(run.client(i), path, ContentionRule.mutex(), false), 75, Duration.ofSeconds(2), run.workers, history,
                    store));
            }
            AtomicInteger expired = new AtomicInteger();
            // the fault this canary needs: end the holder's session once per acquisition, while it holds
            run.workers.start("expirer", 1, w -> {
                run.workers.pace(Duration.ofMillis(200));
                String holder = history.holder();
                int acquisitions = (int) history.count(ProcessHistory.ACQUIRED);
                if (holder == null || expired.getAndSet(acquisitions) == acquisitions) {
                    return false;
                }
                SessionKiller.expire(run.client(Integer.parseInt(holder.substring("canary-".length()))),
                    ensemble.connectString(), Duration.ofSeconds(10));
                return true;
            });
            run.workers.start("canary", run.clients.size(), i -> workers.get(i).step());
            run.runFaults();
            judged = history.judge(store, run.truth(), LockChaosTest.standard(1), 0);
        }
        System.out.println("[canary-process-no-loss-signal] " + judged.checks());
        assertThat(judged.checks().get("loss signalled within 500 ms of the servers' end"))
            .anyMatch(p -> p.contains("went on believing it held for at least"));
    }

    /**
     * A {@code SharedTicket} mutex built wrong: it hands the lock on to the next local thread
     * whatever became of the process's node (it keeps a budget of hand-offs only while the node
     * is valid), and a thread handed the lock is never told of a loss (the node's first holder
     * is). Client 0's session is ended twice while one of its threads holds a new node (it waits
     * until it is told), and the client's other threads go on handing the node the servers
     * deleted to each other. The loss rule of {@link SharedTicketJudge} must fail: the same
     * workload and judge as the side-by-side run's {@code shared-mutex}.
     */
    @Test
    void aSharedTicketMutexThatHandsOnAfterItsNodeIsLostIsCaught() throws Exception {
        String path = "/canary/shared-ticket";
        SharedTicketJudge.Judgement judged;
        try (ChaosRun run = canary("shared-ticket", path).clients(3).duration(Duration.ofSeconds(4))
            .documented(OwnershipLostException.class).build()) {
            AtomicInteger nodes = new AtomicInteger();
            SharedTicketChaos.Started started = SharedTicketChaos.start(run, "canary", path, c -> {
                HandsOnAfterLoss broken = new HandsOnAfterLoss(run.client(c), path);
                return timeout -> {
                    SharedTicketChaos.Ticket ticket = broken.acquire(timeout);
                    int taken = c == 0 && ticket != null && ticket.token().handOff() == 0 ? nodes.incrementAndGet() : 0;
                    if (taken == 3 || taken == 6) {
                        // the fault this canary needs: client 0's session ends while a thread holds its
                        // new node and the others queue behind it; the holder waits until it is told
                        SessionKiller.expire(run.client(0), ensemble.connectString(), Duration.ofSeconds(10));
                        org.awaitility.Awaitility.await("the holder told of its loss").atMost(Duration.ofSeconds(10))
                            .pollInterval(Duration.ofMillis(5)).until(() -> !ticket.grant().isValid());
                    }
                    return ticket;
                };
            }, LockChaosTest.standard(1), 5);
            run.runFaults();
            judged = started.judge(run);
        }
        System.out.println("[canary-shared-ticket] " + judged.summary() + "\n  " + judged.checks());
        assertThat(judged.checks().get("shared-mutex: a local holder whose process lost the node is told"))
            .anyMatch(p -> p.contains("after the servers deleted its process's node"));
    }

    /**
     * The broken shared-ticket mutex of {@link #aSharedTicketMutexThatHandsOnAfterItsNodeIsLostIsCaught}:
     * a fair semaphore orders the client's threads, the first takes a node through the
     * contention engine, and a release hands the node on while a thread queues (and, while the
     * node is valid, only {@link #BUDGET} times).
     */
    static final class HandsOnAfterLoss {
        /** Local hand-offs per node while it is valid, so that the other clients get turns. */
        private static final int BUDGET = 20;
        private final Contention contention;
        private final java.util.concurrent.Semaphore turn = new java.util.concurrent.Semaphore(1, true);
        /** Guarded by this: the node the client's threads hand on, and its last hold's number. */
        private Holding node;
        private long handOffs;

        HandsOnAfterLoss(BatonClient client, String path) {
            this.contention = Contention.of(client, path, "lock-", ContentionRule.mutex());
        }

        SharedTicketChaos.Ticket acquire(Duration timeout) throws InterruptedException {
            long deadline = System.nanoTime() + timeout.toNanos();
            if (!turn.tryAcquire(timeout.toNanos(), java.util.concurrent.TimeUnit.NANOSECONDS)) {
                return null;
            }
            Holding current;
            long number;
            synchronized (this) {
                current = node;
                number = ++handOffs;
            }
            if (current != null) {
                // the broken part: handed on without asking whether the node still holds, and never told of its loss
                return new SharedTicketChaos.Ticket(new Grant(local(current, false), "broken shared grant", g -> { }) { },
                    new dev.baton.framework.contention.FencingToken(current.fencingToken(), number));
            }
            Holding taken;
            try {
                taken = contention.acquireHoldBlocking(new byte[0], Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
            } catch (InterruptedException | RuntimeException e) {
                turn.release();
                throw e;
            }
            if (taken == null) {
                turn.release();
                return null;
            }
            synchronized (this) {
                node = taken;
                handOffs = 0;
            }
            return new SharedTicketChaos.Ticket(new Grant(local(taken, true), "broken shared grant", g -> { }) { },
                new dev.baton.framework.contention.FencingToken(taken.fencingToken(), 0));
        }

        /** A local hold on {@code on}: its release hands on while a thread queues, else deletes the node. */
        private Hold local(Holding on, boolean told) {
            return new Hold() {
                @Override
                public long fencingToken() {
                    return on.fencingToken();
                }

                @Override
                public List<String> nodes() {
                    return on.nodes();
                }

                @Override
                public boolean isValid() {
                    return !told || on.isValid();
                }

                @Override
                public Optional<String> lossReason() {
                    return told ? on.lossReason() : Optional.empty();
                }

                @Override
                public void onLost(Runnable callback) {
                    if (told) {
                        on.onLost(callback);
                    }
                }

                @Override
                public TransactionBuilder guard(TransactionBuilder transaction) {
                    return on.guard(transaction);
                }

                @Override
                public boolean connected() {
                    return on.connected();
                }

                @Override
                public CompletableFuture<Void> delete() {
                    boolean budgetLeft;
                    synchronized (HandsOnAfterLoss.this) {
                        budgetLeft = handOffs < BUDGET;
                    }
                    // the broken part: the budget, which lets other processes in, is only kept while
                    // the node is valid; a lost node is handed on for as long as a thread queues
                    if (turn.hasQueuedThreads() && (budgetLeft || !on.isValid())) {
                        turn.release();
                        return CompletableFuture.completedFuture(null);
                    }
                    synchronized (HandsOnAfterLoss.this) {
                        node = null;
                    }
                    CompletableFuture<Void> deleted = on.delete();
                    turn.release();
                    return deleted;
                }
            };
        }
    }

    /** An election whose first two participants in line both believe they lead. */
    @Test
    void anElectionWithTwoLeadersIsCaught() {
        String path = "/canary/election";
        assertThatThrownBy(() -> {
            try (ChaosRun run = canary("election", path).build()) {
                dev.baton.test.history.History history = new dev.baton.test.history.History();
                ElectionChaosTest.Terms terms = new ElectionChaosTest.Terms(history, path, run.clients.size());
                run.workers.start("participant", run.clients.size(), i -> {
                    Holding term = Contention.of(run.client(i), path, "latch-", FIRST_TWO)
                        .acquireHoldBlocking(("p" + i).getBytes(UTF_8), Duration.ofSeconds(2));
                    if (term == null) {
                        return false;
                    }
                    terms.granted(i, term.fencingToken(), run.client(i));
                    run.workers.pace(Duration.ofMillis(100));
                    terms.ended(i, false);
                    term.delete().get();
                    return true;
                });
                run.runFaults();
                BoundedExclusion.Result result = BoundedExclusion.check(history.events(), run.truth(),
                    new BoundedExclusion.Rules(1, ChaosRun.DELIVERY_MARGIN, "CONNECTION"));
                run.verdict(history.count(dev.baton.test.history.Event.Op.ACQUIRED),
                    Map.of("CONNECTION at most one leader", result.violations()), result.summary());
            }
        }).isInstanceOf(AssertionError.class).hasMessageContaining("double grant");
    }

    /** A read/write lock whose write side admits a writer among readers (it takes the read rule). */
    @Test
    void aReadWriteLockThatAdmitsAWriterWithReadersIsCaught() {
        String path = "/canary/rwlock";
        assertThatThrownBy(() -> {
            try (ChaosRun run = canary("rwlock", path).documented(OwnershipLostException.class).build()) {
                List<InterProcessReadWriteLock> locks = new ArrayList<>();
                for (int i = 0; i < run.clients.size(); i++) {
                    locks.add(new InterProcessReadWriteLock(run.client(i), path));
                }
                RwLockChaosTest.rwWorkload(run, path, (i, write, timeout) -> locks.get(i).readLock().acquireLease(timeout));
            }
        }).isInstanceOf(AssertionError.class).hasMessageContaining("double grant");
    }

    /**
     * A double barrier built to open on 2 members, judged as one of 3, with three members (with
     * five, a third member's node is nearly always there by chance).
     */
    @Test
    void aBarrierThatOpensOnTwoOfThreeIsCaught() {
        String path = "/canary/barrier";
        assertThatThrownBy(() -> {
            try (ChaosRun run = canary("barrier", path).clients(3).build()) {
                BarrierChaosTest.doubleBarrierWorkload(run, path, 2, 3);
            }
        }).isInstanceOf(AssertionError.class).hasMessageContaining("3 needed");
    }

    /**
     * A count-down latch whose waiters return when one count-down is still missing: it reads the
     * latch's generation and count and lists that generation's count-downs.
     */
    @Test
    void aLatchThatOpensBeforeZeroIsCaught() {
        String path = "/canary/latch";
        assertThatThrownBy(() -> {
            try (ChaosRun run = canary("latch", path).build()) {
                BarrierChaosTest.latchWorkload(run, path, (client, timeout) -> openAtOne(client, path, timeout));
            }
        }).isInstanceOf(AssertionError.class).hasMessageContaining("not at zero");
    }

    private static boolean openAtOne(BatonClient client, String path, Duration timeout) {
        try {
            org.awaitility.Awaitility.await().atMost(timeout).pollInterval(Duration.ofMillis(5)).ignoreExceptions().until(() -> {
                String[] latch;
                try {
                    latch = new String(client.getData().forPath(path), UTF_8).split(" ");
                } catch (NoNodeException never) {
                    return true;
                }
                long counted = client.getChildren().forPath(path + "/g-" + latch[0]).stream()
                    .filter(n -> !n.equals("done")).count();
                return counted >= Long.parseLong(latch[1]) - 1; // the broken part: one short of zero
            });
            return true;
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            return false;
        }
    }

    /**
     * Consumers that take an item by reading it and deleting it, with no claim: two of them read
     * the same first item and both deliver it.
     */
    @Test
    void aQueueThatDeliversTwiceIsCaught() {
        String path = "/canary/queue";
        assertThatThrownBy(() -> {
            try (ChaosRun run = canary("double-delivery", path, path + "-locks").build()) {
                QueueHistory history = new QueueHistory();
                DistributedQueue<String> producer = QueueBuilder.builder(run.client(4), null, QueueChaosTest.TEXT, path)
                    .layout(dev.baton.recipes.queue.QueueLayout.FLAT).buildQueue();
                producer.start();
                AtomicInteger next = new AtomicInteger();
                run.workers.start("producer", 1, p -> {
                    String item = "p0-" + next.getAndIncrement();
                    producer.put(item);
                    history.put("producer-0", item);
                    run.workers.pace(Duration.ofMillis(5));
                    return true;
                });
                run.workers.start("consumer", 3, c -> {
                    BatonClient client = run.client(c);
                    List<String> items = client.getChildren().forPath(path).stream().filter(n -> n.startsWith("queue-"))
                        .sorted().toList();
                    if (items.isEmpty()) {
                        return true;
                    }
                    String first = path + "/" + items.get(0);
                    byte[] data;
                    try {
                        data = client.getData().forPath(first);
                    } catch (NoNodeException taken) {
                        return true;
                    }
                    for (String item : QueueChaosTest.itemIds(data)) {
                        history.started("consumer-" + c, item, client.sessionId());
                        history.completed("consumer-" + c, item, client.sessionId());
                    }
                    try {
                        client.delete().forPath(first);
                    } catch (NoNodeException taken) {
                        // another consumer deleted it first: the broken part, it was delivered twice
                    }
                    return true;
                });
                run.runFaults();
                producer.close();
                QueueHistory.Verdict verdict = history.checkAgainstServers(run.truth(), path, path + "-locks", "queue-",
                    QueueChaosTest::itemIds);
                run.verdict(history.completedItems(), Map.of(verdict.check(), verdict.problems()));
            }
        }).isInstanceOf(AssertionError.class).hasMessageContaining("duplicate");
    }

    /**
     * CURATOR-605's class: a consumer claims an item, consumes it, its session ends (so its claim
     * is gone), and it acknowledges anyway by deleting the item from its next session.
     */
    @Test
    void aQueueThatAcknowledgesOnADeadClaimIsCaught() {
        String path = "/canary/dead-claim";
        String locks = path + "-locks";
        assertThatThrownBy(() -> {
            try (ChaosRun run = canary("dead-claim-ack", path, locks).build()) {
                QueueHistory history = new QueueHistory();
                DistributedQueue<String> producer = QueueBuilder.builder(run.client(4), null, QueueChaosTest.TEXT, path)
                    .layout(dev.baton.recipes.queue.QueueLayout.FLAT).buildQueue();
                producer.start();
                for (int i = 0; i < 3; i++) {
                    producer.put("p0-" + i);
                    history.put("producer-0", "p0-" + i);
                }
                producer.close();
                BatonClient client = run.client(0);
                run.workers.start("consumer", 1, c -> {
                    List<String> items = client.getChildren().forPath(path).stream().filter(n -> n.startsWith("queue-"))
                        .sorted().toList();
                    if (items.isEmpty()) {
                        run.workers.pace(Duration.ofMillis(50));
                        return true;
                    }
                    String name = items.get(0);
                    try {
                        client.create().withMode(CreateMode.EPHEMERAL).creatingParentContainersIfNeeded()
                            .forPath(locks + "/" + name);
                    } catch (NodeExistsException held) {
                        return false;
                    }
                    long session = client.sessionId();
                    byte[] data = client.getData().forPath(path + "/" + name);
                    for (String item : QueueChaosTest.itemIds(data)) {
                        history.started("consumer-0", item, session);
                        history.completed("consumer-0", item, session);
                    }
                    SessionKiller.expire(client, ensemble.connectString(), Duration.ofSeconds(10));
                    // the broken part: acknowledge without the claim, which died with the session
                    org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(20)).ignoreExceptions()
                        .until(() -> client.sessionId() != session && client.connectionState().isConnected());
                    client.delete().forPath(path + "/" + name);
                    return true;
                });
                run.runFaults();
                QueueHistory.Verdict verdict = history.checkAgainstServers(run.truth(), path, locks, "queue-", QueueChaosTest::itemIds);
                run.verdict(history.completedItems(), Map.of(verdict.check(), verdict.problems()));
            }
        }).isInstanceOf(AssertionError.class).hasMessageContaining("dead claim");
    }
}
