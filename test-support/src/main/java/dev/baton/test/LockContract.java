package dev.baton.test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ClientClosedException;
import dev.baton.framework.InterProcessLock;
import dev.baton.framework.NoNodeException;
import dev.baton.framework.NodeOwner;
import dev.baton.test.history.Event;
import dev.baton.test.history.History;
import dev.baton.test.history.MutualExclusion;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.zookeeper.data.Stat;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;

/**
 * The mutual-exclusion contract every {@link InterProcessLock} passes. A lock module reuses it by
 * extending it in a test class annotated {@link EnsembleTest} and saying how to make its lock:
 *
 * <pre>{@code
 * @EnsembleTest
 * class InterProcessMutexContractTest extends LockContract {
 *     @Override
 *     protected InterProcessLock newLock(BatonClient client, String path) {
 *         return new InterProcessMutex(client, path);
 *     }
 * }
 * }</pre>
 *
 * <p>Each test works under its own path and its own clients. What it checks: one holder at a
 * time among many threads of several clients, with fencing tokens that strictly increase in
 * entry order (judged from a recorded {@link History}); a release lets a waiter in; a timed-out
 * or interrupted acquisition leaves no node behind; releasing without holding throws
 * {@link IllegalMonitorStateException}; re-entrancy as declared; a token only while held.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
public abstract class LockContract {
    /** How long any single wait in the contract may take before the test fails. */
    protected static final Duration PATIENCE = Duration.ofSeconds(30);

    private final List<BatonClient> clients = new ArrayList<>();
    private String connectString;
    private String base;

    /**
     * {@return a new lock object on {@code path}, used through {@code client}}
     *
     * @param client the client the lock works through
     * @param path the lock's path
     */
    protected abstract InterProcessLock newLock(BatonClient client, String path);

    /** {@return whether a thread that holds the lock may acquire it again} Default true. */
    protected boolean reentrant() {
        return true;
    }

    @BeforeEach
    void prepare(@ConnectString String connect, TestInfo test) {
        this.connectString = connect;
        this.base = "/contract/" + test.getTestMethod().map(m -> m.getName()).orElse("test") + "-" + UUID.randomUUID();
    }

    @AfterEach
    void closeClients() {
        clients.forEach(BatonClient::close);
        clients.clear();
    }

    /** {@return a started client of the ensemble, closed after the test} */
    protected BatonClient client() {
        BatonClient client = TestClients.started(connectString, Duration.ofSeconds(10));
        clients.add(client);
        return client;
    }

    /** {@return the lock's path for the running test} */
    protected String lockPath() {
        return base + "/lock";
    }

    /**
     * Several clients, each with several threads, take turns: never two holders, and each token is larger
     * than the last.
     *
     * @throws InterruptedException if the test thread is interrupted
     * @throws ExecutionException if a worker failed
     * @throws TimeoutException if the workers did not finish in time
     */
    @Test
    public void oneHolderAtATimeAcrossClientsAndThreadsWithIncreasingTokens()
        throws InterruptedException, ExecutionException, TimeoutException {
        int clientCount = 3;
        int threadsPerClient = 2;
        int rounds = 6;
        History history = new History();
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        List<CompletableFuture<Void>> workers = new ArrayList<>();
        for (int c = 0; c < clientCount; c++) {
            InterProcessLock lock = newLock(client(), lockPath());
            for (int t = 0; t < threadsPerClient; t++) {
                String actor = "client-" + c + "/thread-" + t;
                workers.add(CompletableFuture.runAsync(() -> work(lock, actor, rounds, history, inside, overlaps),
                    daemonThread(actor)));
            }
        }
        for (CompletableFuture<Void> worker : workers) {
            worker.get(PATIENCE.toSeconds() * 2, TimeUnit.SECONDS);
        }
        MutualExclusion.check(history.events()).assertOk();
        assertEquals(0, overlaps.get(), "threads of one process found someone else inside the critical section");
        assertEquals(clientCount * threadsPerClient * rounds, history.count(Event.Op.ACQUIRED),
            "every worker should have held the lock every round");
        awaitNoEphemeralNodes("after every hold was released");
    }

    /**
     * A waiter gets the lock once the holder releases it.
     *
     * @throws InterruptedException if the test thread is interrupted
     * @throws ExecutionException if the waiter failed
     * @throws TimeoutException if the waiter did not get the lock in time
     */
    @Test
    public void releaseLetsTheWaiterIn() throws InterruptedException, ExecutionException, TimeoutException {
        InterProcessLock first = newLock(client(), lockPath());
        InterProcessLock second = newLock(client(), lockPath());
        ExecutorService waiterThread = singleThread("contract-waiter");
        try {
            first.acquire();
            Future<Boolean> waiter = waiterThread.submit(() -> second.acquire(PATIENCE));
            assertFalse(completesWithin(waiter, Duration.ofMillis(300)), "the waiter must not get the lock while it is held");
            long firstToken = first.fencingToken();

            first.release();

            assertTrue(waiter.get(PATIENCE.toSeconds(), TimeUnit.SECONDS), "the waiter should get the lock after the release");
            assertTrue(second.isAcquiredInThisProcess());
            assertFalse(first.isAcquiredInThisProcess());
            assertTrue(second.fencingToken() > firstToken, "the next holder's token is larger");
            assertThrows(IllegalMonitorStateException.class, second::release, "only the holding thread may release");
            waiterThread.submit(() -> {
                second.release();
                return null;
            }).get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
            awaitNoEphemeralNodes("after both released");
        } finally {
            waiterThread.shutdownNow();
        }
    }

    /**
     * A timeout too long to count ({@code Duration.ofMillis(Long.MAX_VALUE)}) waits for the lock instead of
     * failing.
     *
     * @throws InterruptedException if the test thread is interrupted
     * @throws ExecutionException if the waiter failed
     * @throws TimeoutException if the waiter did not get the lock in time
     */
    @Test
    public void aTimeoutTooLongToCountWaitsAsLongAsItTakes() throws InterruptedException, ExecutionException, TimeoutException {
        BatonClient holderClient = client();
        BatonClient waiterClient = client();
        InterProcessLock holder = newLock(holderClient, lockPath());
        InterProcessLock waiter = newLock(waiterClient, lockPath());
        holder.acquire();
        // Duration.toNanos() overflows for these; they must mean "no limit", not an error or a deadline already past
        CompletableFuture<Boolean> acquired = CompletableFuture.supplyAsync(() -> {
            try {
                boolean got = waiter.acquire(Duration.ofMillis(Long.MAX_VALUE));
                waiter.release();
                return got;
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        awaitCondition("the waiter is in line", () -> ephemeralNodesOf(waiterClient) >= 1);
        assertFalse(acquired.isDone(), "the waiter waits while the lock is held: " + acquired);
        holder.release();
        assertTrue(acquired.get(PATIENCE.toSeconds(), TimeUnit.SECONDS), "the waiter gets the lock after the release");
        assertTrue(holder.acquire(ChronoUnit.FOREVER.getDuration()), "a free lock is had at once with the longest timeout");
        holder.release();
        awaitNoEphemeralNodes("after both released");
    }

    /**
     * Every form of acquisition through a closed client fails at once with {@code ClientClosedException}.
     *
     * @throws InterruptedException if the test thread is interrupted
     */
    @Test
    public void acquiringThroughAClosedClientFailsAtOnceInEveryForm() throws InterruptedException {
        BatonClient closed = client();
        InterProcessLock lock = newLock(closed, lockPath());
        closed.close();
        assertThrows(ClientClosedException.class, lock::acquire);
        assertThrows(ClientClosedException.class, () -> lock.acquire(Duration.ofSeconds(5)));
        assertFalse(lock.isAcquiredInThisProcess());
    }

    /**
     * A timed acquisition that runs out returns false and leaves no node behind.
     *
     * @throws InterruptedException if the test thread is interrupted
     */
    @Test
    public void timedOutAcquireReturnsFalseAndLeavesNoNode() throws InterruptedException {
        BatonClient holderClient = client();
        BatonClient otherClient = client();
        InterProcessLock holder = newLock(holderClient, lockPath());
        InterProcessLock other = newLock(otherClient, lockPath());
        holder.acquire();

        assertFalse(other.acquire(Duration.ofMillis(300)), "a held lock cannot be had within the timeout");
        assertFalse(other.acquire(Duration.ZERO), "a held lock cannot be had by a single try");

        assertFalse(other.isAcquiredInThisProcess());
        awaitCondition("no node of the timed-out client is left", () -> ephemeralNodesOf(otherClient) == 0);
        holder.release();
        awaitNoEphemeralNodes("after the holder released");
    }

    /**
     * An interrupted acquisition throws {@code InterruptedException} and leaves no node behind.
     *
     * @throws InterruptedException if the test thread is interrupted
     * @throws ExecutionException if the waiter failed otherwise
     * @throws TimeoutException if the waiter did not end in time
     */
    @Test
    public void interruptedAcquireThrowsAndLeavesNoNode() throws InterruptedException, ExecutionException, TimeoutException {
        BatonClient otherClient = client();
        InterProcessLock holder = newLock(client(), lockPath());
        InterProcessLock other = newLock(otherClient, lockPath());
        holder.acquire();
        CompletableFuture<Throwable> outcome = new CompletableFuture<>();
        Thread waiter = new Thread(() -> {
            try {
                other.acquire();
                outcome.complete(null);
            } catch (Throwable e) {
                outcome.complete(e);
            }
        }, "contract-interrupted-waiter");
        waiter.setDaemon(true);
        waiter.start();
        awaitCondition("the waiter has a node in line", () -> ephemeralNodesOf(otherClient) > 0);

        waiter.interrupt();

        assertTrue(outcome.get(PATIENCE.toSeconds(), TimeUnit.SECONDS) instanceof InterruptedException,
            "an interrupted acquire throws InterruptedException");
        awaitCondition("the interrupted waiter's node is gone", () -> ephemeralNodesOf(otherClient) == 0);
        holder.release();
    }

    /**
     * Releasing without holding throws {@code IllegalMonitorStateException}, also from another thread than
     * the holder's.
     *
     * @throws InterruptedException if the test thread is interrupted
     * @throws ExecutionException if the other thread failed otherwise
     * @throws TimeoutException if the other thread did not end in time
     */
    @Test
    public void releaseWithoutHoldingThrows() throws InterruptedException, ExecutionException, TimeoutException {
        InterProcessLock lock = newLock(client(), lockPath());
        assertThrows(IllegalMonitorStateException.class, lock::release, "releasing a lock never acquired");
        lock.acquire();
        CompletableFuture<Throwable> otherThread = CompletableFuture.supplyAsync(() -> {
            try {
                lock.release();
                return null;
            } catch (Throwable e) {
                return e;
            }
        }, daemonThread("contract-not-the-holder"));
        assertTrue(otherThread.get(PATIENCE.toSeconds(), TimeUnit.SECONDS) instanceof IllegalMonitorStateException,
            "a thread that does not hold the lock cannot release it");
        lock.release();
        assertThrows(IllegalMonitorStateException.class, lock::release, "releasing more times than acquired");
        awaitNoEphemeralNodes("after the release");
    }

    /**
     * A re-entrant lock counts holds and keeps its token; a non-re-entrant one refuses a second acquire.
     *
     * @throws InterruptedException if the test thread is interrupted
     */
    @Test
    public void reentrancyIsAsDeclaredAndKeepsTheToken() throws InterruptedException {
        InterProcessLock lock = newLock(client(), lockPath());
        lock.acquire();
        long token = lock.fencingToken();
        if (reentrant()) {
            assertTrue(lock.acquire(Duration.ofSeconds(5)), "a re-entrant lock is granted again to its holder");
            assertEquals(token, lock.fencingToken(), "re-entry keeps the fencing token");
            lock.release();
            assertTrue(lock.isAcquiredInThisProcess(), "one release of two acquisitions keeps the lock");
        } else {
            try {
                assertFalse(lock.acquire(Duration.ofMillis(200)), "a non-re-entrant lock is not granted twice");
            } catch (IllegalStateException refused) {
                // refusing at once is as good as timing out
            }
        }
        lock.release();
        assertFalse(lock.isAcquiredInThisProcess());
        awaitNoEphemeralNodes("after the last release");
    }

    /**
     * The fencing token is there while the lock is held, and only then.
     *
     * @throws InterruptedException if the test thread is interrupted
     */
    @Test
    public void fencingTokenOnlyWhileHeld() throws InterruptedException {
        InterProcessLock lock = newLock(client(), lockPath());
        assertThrows(IllegalStateException.class, lock::fencingToken, "no token before the lock is held");
        lock.acquire();
        long first = lock.fencingToken();
        lock.release();
        assertThrows(IllegalStateException.class, lock::fencingToken, "no token after the lock is released");
        lock.acquire();
        assertTrue(lock.fencingToken() > first, "the next hold's token is larger");
        lock.release();
    }

    /**
     * The ACL half of the contract, for a lock run over a secure ensemble
     * ({@code @EnsembleTest(tls = true)}, see {@link TestSecurity}): while a client of the test
     * identity holds the lock, a client of another identity can neither list the lock's folder,
     * nor delete the holder's nodes, nor take the lock — each attempt fails at once with
     * {@code NoAuthException} — and the holder keeps the lock and its token throughout. A secure
     * subclass calls this from a test of its own: the plain runs have no second identity.
     *
     * @throws InterruptedException if the test thread is interrupted
     */
    protected void anotherIdentityIsRefusedWhileHeld() throws InterruptedException {
        BatonClient owner = client();
        InterProcessLock lock = newLock(owner, lockPath());
        assertTrue(lock.acquire(PATIENCE), "the test identity takes the lock");
        long token = lock.fencingToken();
        List<String> held = ephemeralNodes(owner, base, owner.sessionId());
        assertFalse(held.isEmpty(), "the holder has a node under " + base);
        try (BatonClient intruder = TestSecurity.client("intruder")) {
            TestSecurity.refused(() -> intruder.getChildren().forPath(lockPath()));
            for (String node : held) {
                TestSecurity.refused(() -> intruder.delete().forPath(node));
            }
            InterProcessLock theirs = newLock(intruder, lockPath());
            TestSecurity.refused(() -> theirs.acquire(PATIENCE));
            assertFalse(theirs.isAcquiredInThisProcess(), "a refused acquisition holds nothing");
        }
        assertTrue(lock.isAcquiredInThisProcess(), "still held after the other identity's attempts");
        assertEquals(token, lock.fencingToken(), "the same hold, with the same token");
        assertEquals(held, ephemeralNodes(owner, base, owner.sessionId()), "the holder's nodes are all still there");
        lock.release();
        awaitNoEphemeralNodes("after the release");
    }

    private void work(InterProcessLock lock, String actor, int rounds, History history, AtomicInteger inside,
                      AtomicInteger overlaps) {
        try {
            for (int i = 0; i < rounds; i++) {
                if (!lock.acquire(PATIENCE)) {
                    fail(actor + " could not get the lock within " + PATIENCE);
                }
                history.acquired(actor, lockPath(), lock.fencingToken());
                if (inside.incrementAndGet() != 1) {
                    overlaps.incrementAndGet();
                }
                Thread.yield();
                inside.decrementAndGet();
                history.released(actor, lockPath());
                lock.release();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(actor + " was interrupted", e);
        }
    }

    private static boolean completesWithin(Future<?> future, Duration wait) throws InterruptedException {
        try {
            future.get(wait.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (TimeoutException e) {
            return false;
        } catch (ExecutionException e) {
            return true;
        }
    }

    private static ExecutorService singleThread(String name) {
        return Executors.newSingleThreadExecutor(task -> {
            Thread thread = new Thread(task, name);
            thread.setDaemon(true);
            return thread;
        });
    }

    private static Executor daemonThread(String name) {
        return task -> {
            Thread thread = new Thread(task, name);
            thread.setDaemon(true);
            thread.start();
        };
    }

    /**
     * Waits until no ephemeral node is left under the test's path.
     *
     * @param when what the test just did, for the failure message
     * @throws InterruptedException if the calling thread is interrupted while it waits
     */
    protected void awaitNoEphemeralNodes(String when) throws InterruptedException {
        BatonClient observer = client();
        awaitCondition("no ephemeral node under " + base + " " + when, () -> ephemeralNodes(observer, base, 0).isEmpty());
    }

    private long ephemeralNodesOf(BatonClient owner) throws InterruptedException {
        return ephemeralNodes(owner, base, owner.sessionId()).size();
    }

    /** Ephemeral nodes under {@code path} (owned by {@code session}, or by anyone when 0). */
    private static List<String> ephemeralNodes(BatonClient client, String path, long session) throws InterruptedException {
        List<String> found = new ArrayList<>();
        List<String> children;
        try {
            children = client.getChildren().forPath(path);
        } catch (NoNodeException e) {
            return found;
        }
        for (String child : children) {
            String childPath = path + "/" + child;
            Stat stat = client.checkExists().forPath(childPath);
            if (stat != null && (session == 0 ? NodeOwner.isEphemeral(stat) : NodeOwner.isOwnedBy(stat, session))) {
                found.add(childPath);
            }
            found.addAll(ephemeralNodes(client, childPath, session));
        }
        return found;
    }

    /** A condition that may throw InterruptedException. */
    @FunctionalInterface
    protected interface Condition {
        /**
         * {@return whether the condition holds now}
         *
         * @throws InterruptedException if the calling thread is interrupted while it checks
         */
        boolean holds() throws InterruptedException;
    }

    /**
     * Waits until {@code condition} holds, failing after {@link #PATIENCE}.
     *
     * @param what the condition in words, for the failure message
     * @param condition the condition
     */
    protected static void awaitCondition(String what, Condition condition) {
        Awaitility.await(what).atMost(PATIENCE).pollInterval(Duration.ofMillis(20)).until(condition::holds);
    }
}
