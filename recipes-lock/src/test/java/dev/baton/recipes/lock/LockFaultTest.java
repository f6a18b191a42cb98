package dev.baton.recipes.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ConnectionState;
import dev.baton.framework.ErrorPolicy;
import dev.baton.framework.TransactionFailedException;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.ChaosProxy;
import dev.baton.test.EnsembleTest;
import dev.baton.test.LockFaults;
import dev.baton.test.ReadOnlyServer;
import dev.baton.test.SessionKiller;
import dev.baton.test.TestClients;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Session expiry and connection faults: loss is loud, and no fault leaves a node behind. */
@EnsembleTest
class LockFaultTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final Duration SHORT_SESSION = Duration.ofSeconds(3);
    /**
     * How long a try may take to answer while cut off: far below the connection timeout of a
     * {@link #patientClientThrough patient client} (a minute), which an answer that waited for
     * the connection would take.
     */
    private static final Duration AT_ONCE = Duration.ofSeconds(10);

    EmbeddedEnsemble ensemble;

    @Test
    void holdersSessionExpiryLetsAnotherInAndTheOldLeaseIsLoudlyLost(BatonClient other) throws Exception {
        try (BatonClient victim = TestClients.started(ensemble.connectString(), SHORT_SESSION)) {
            InterProcessMutex victimMutex = new InterProcessMutex(victim, "/fault/expiry");
            LockLease old = victimMutex.acquireLease();
            AtomicInteger lostCalls = new AtomicInteger();
            old.onLost(lostCalls::incrementAndGet);
            var staleWrite = old.guard(victim.transaction()).create("/fault-expiry-write", new byte[0]);
            CompletableFuture<LockLease> next = new InterProcessMutex(other, "/fault/expiry").acquireAsync();

            SessionKiller.expire(victim, ensemble.connectString(), WAIT);

            LockLease taken = next.get(20, TimeUnit.SECONDS);
            assertThat(taken.fencingToken()).isGreaterThan(old.fencingToken());
            await().atMost(WAIT).until(() -> !old.isValid() && lostCalls.get() == 1);
            assertThat(old.lossReason()).isPresent();
            awaitConnected(victim);
            assertThatThrownBy(staleWrite::commit).as("a guarded write of the old holder").isInstanceOf(TransactionFailedException.class);
            assertThatThrownBy(old::release).isInstanceOf(LockOwnershipLostException.class)
                .isInstanceOf(IllegalMonitorStateException.class).hasMessageContaining("was lost before it was released");
            assertThat(victimMutex.isAcquiredInThisProcess()).as("local state is cleaned up").isFalse();
            assertThat(other.checkExists().forPath("/fault-expiry-write")).isNull();
            taken.release();
        }
    }

    /**
     * The holder's session comes back on a server cut off from its quorum (READ_ONLY): the quorum
     * may expire the session and give the lock away meanwhile, so READ_ONLY counts as SUSPENDED.
     * Under STANDARD the lease is lost at once; under SESSION_ONLY when the client gives the
     * session up, a session timeout after the disconnect. Either way it is lost on the read-only
     * server, loudly, and its release says so.
     */
    @Test
    void aHolderBackOnAReadOnlyServerLosesItsLockUnderEitherPolicy() throws Exception {
        Map<ErrorPolicy, BatonClient> clients = new java.util.EnumMap<>(ErrorPolicy.class);
        try {
            Map<ErrorPolicy, LockLease> leases = new java.util.EnumMap<>(ErrorPolicy.class);
            List<ErrorPolicy> lost = new java.util.concurrent.CopyOnWriteArrayList<>();
            for (ErrorPolicy policy : ErrorPolicy.values()) {
                BatonClient client = TestClients.started(BatonClient.builder().connectString(ensemble.connectString())
                    .sessionTimeout(SHORT_SESSION).errorPolicy(policy).canBeReadOnly(true));
                clients.put(policy, client);
                LockLease lease = new InterProcessMutex(client, "/fault/read-only-" + policy).acquireLease();
                lease.onLost(() -> lost.add(policy));
                leases.put(policy, lease);
            }

            clients.values().forEach(client -> ReadOnlyServer.loseQuorum(client, WAIT));
            assertThat(leases.get(ErrorPolicy.STANDARD).isValid()).as("STANDARD, at once").isFalse();

            await().atMost(WAIT).untilAsserted(() -> assertThat(lost).containsExactlyInAnyOrder(ErrorPolicy.values()));
            leases.forEach((policy, lease) -> {
                assertThat(lease.isValid()).as(policy.name()).isFalse();
                assertThatThrownBy(lease::release).as(policy.name()).isInstanceOf(LockOwnershipLostException.class);
            });
        } finally {
            clients.values().forEach(BatonClient::close);
        }
    }

    @Test
    void threadHoldLostToExpiryThrowsOnReleaseAndCanBeTakenAgain(BatonClient other) throws Exception {
        try (BatonClient victim = TestClients.started(ensemble.connectString(), SHORT_SESSION)) {
            InterProcessMutex mutex = new InterProcessMutex(victim, "/fault/thread");
            mutex.acquire();
            long oldToken = mutex.fencingToken();

            SessionKiller.expire(victim, ensemble.connectString(), WAIT);

            InterProcessMutex otherMutex = new InterProcessMutex(other, "/fault/thread");
            assertThat(otherMutex.acquire(WAIT)).isTrue();
            assertThatThrownBy(mutex::acquire).as("re-entering a lost hold").isInstanceOf(LockOwnershipLostException.class);
            assertThatThrownBy(mutex::release).isInstanceOf(LockOwnershipLostException.class);
            assertThat(mutex.isHeldByCurrentThread()).isFalse();
            otherMutex.release();
            awaitConnected(victim);
            assertThat(mutex.acquire(WAIT)).isTrue();
            assertThat(mutex.fencingToken()).isGreaterThan(oldToken);
            mutex.release();
        }
    }

    @Test
    void suspensionUnderTheStandardPolicyInvalidatesTheLeaseAndReleaseStillDeletesTheNode() throws Exception {
        try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1));
             BatonClient client = TestClients.started(proxy.connectString(), Duration.ofSeconds(10));
             BatonClient observer = TestClients.started(ensemble.connectString(), Duration.ofSeconds(10))) {
            LockLease lease = new InterProcessMutex(client, "/fault/suspended").acquireLease();
            InterProcessMutex looking = new InterProcessMutex(observer, "/fault/suspended");

            proxy.cut();
            await().atMost(WAIT).until(() -> !lease.isValid());
            healAndReconnect(proxy, client);

            assertThat(lease.isValid()).as("loss is final, even though the session survived").isFalse();
            assertThat(looking.participantNodes()).as("the session survived, so the node is still there").hasSize(1);
            assertThatThrownBy(lease::release).isInstanceOf(LockOwnershipLostException.class);
            await().atMost(WAIT).until(() -> looking.participantNodes().isEmpty());
        }
    }

    /**
     * A zero timeout (a try-lock) looks once and never waits, connected or not: cut off from the
     * servers, every form says "not free now" at once, as a timed acquisition whose deadline passes
     * while disconnected does, instead of waiting the connection timeout (here a minute) for its
     * create and then throwing {@code NoConnectionException}. Nothing is left behind.
     */
    @Test
    void aTryWhileCutOffSaysNotFreeAtOnceInsteadOfWaitingForTheConnection(BatonClient observer) throws Exception {
        try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1));
             BatonClient client = patientClientThrough(proxy)) {
            InterProcessMutex mutex = new InterProcessMutex(client, "/fault/try-cut-off/mutex");
            InterProcessSemaphoreV2 semaphore = new InterProcessSemaphoreV2(client, "/fault/try-cut-off/semaphore", 1);
            InterProcessMultiLock multi = new InterProcessMultiLock(client, List.of("/fault/try-cut-off/a", "/fault/try-cut-off/b"));

            proxy.cut();
            await().atMost(WAIT).until(() -> client.connectionState() == ConnectionState.SUSPENDED);

            assertThat(answeredAtOnce("acquire(ZERO)", () -> mutex.acquire(Duration.ZERO))).as("acquire(ZERO)").isFalse();
            assertThat(answeredAtOnce("tryLock()", () -> mutex.asLock().tryLock())).as("tryLock()").isFalse();
            assertThat(answeredAtOnce("acquireLease(ZERO)", () -> mutex.acquireLease(Duration.ZERO))).as("acquireLease(ZERO)").isNull();
            assertThat(answeredAtOnce("acquireAsync(ZERO)", mutex.acquireAsync(Duration.ZERO))).as("acquireAsync(ZERO)").isNull();
            assertThat(answeredAtOnce("semaphore acquire(ZERO)", () -> semaphore.acquire(Duration.ZERO))).as("semaphore acquire(ZERO)").isNull();
            assertThat(answeredAtOnce("multi-lock acquire(ZERO)", () -> multi.acquire(Duration.ZERO))).as("multi-lock acquire(ZERO)").isFalse();

            healAndReconnect(proxy, client);
            assertThat(mutex.acquire(Duration.ZERO)).as("connected again, a try takes the free lock").isTrue();
            mutex.release();
            await().atMost(WAIT).until(() -> contenderNodes(observer, "/fault/try-cut-off").isEmpty());
        }
    }

    /**
     * A try whose connection drops while it looks (its create applied at the servers, the reply lost)
     * says "not free" at once rather than waiting the connection timeout, and the node it made is
     * deleted once the client is back.
     */
    @Test
    void aTryWhoseConnectionDropsWhileItLooksSaysNotFreeAtOnceAndLeavesNoNode(BatonClient observer) throws Exception {
        try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1));
             BatonClient client = patientClientThrough(proxy)) {
            InterProcessMutex mutex = new InterProcessMutex(client, "/fault/try-drop");
            observer.create().creatingParentsIfNeeded().forPath("/fault/try-drop"); // so the first request is the ticket's create

            proxy.pauseReplies();
            CompletableFuture<LockLease> trying = mutex.acquireAsync(Duration.ZERO);
            await().atMost(WAIT).until(() -> !contenderNodes(observer, "/fault/try-drop").isEmpty());
            proxy.cut();

            assertThat(answeredAtOnce("a try cut off while it looks", trying)).as("a try cut off while it looks").isNull();
            healAndReconnect(proxy, client);
            await().atMost(WAIT).until(() -> contenderNodes(observer, "/fault/try-drop").isEmpty());
        }
    }

    /** A client through {@code proxy} whose operations would wait a minute for a lost connection. */
    private static BatonClient patientClientThrough(ChaosProxy proxy) {
        return TestClients.started(BatonClient.builder().connectString(proxy.connectString())
            .sessionTimeout(Duration.ofSeconds(10)).connectionTimeout(Duration.ofMinutes(1)));
    }

    private static void healAndReconnect(ChaosProxy proxy, BatonClient client) {
        proxy.heal();
        awaitConnected(client);
    }

    private static void awaitConnected(BatonClient client) {
        await().atMost(WAIT).until(() -> client.connectionState().isConnected());
    }

    /** A blocking call, run on another thread by {@link #answeredAtOnce(String, Blocking)}. */
    private interface Blocking<T> {
        T call() throws InterruptedException;
    }

    /** What {@code call}, run on another thread, answers; fails if it takes longer than {@link #AT_ONCE}. */
    private static <T> T answeredAtOnce(String what, Blocking<T> call) throws Exception {
        return answeredAtOnce(what, CompletableFuture.supplyAsync(() -> uninterrupted(call)));
    }

    /** What {@code answer} completes with; fails if it takes longer than {@link #AT_ONCE}. */
    private static <T> T answeredAtOnce(String what, CompletableFuture<T> answer) throws Exception {
        try {
            return answer.get(AT_ONCE.toSeconds(), TimeUnit.SECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError(what + " did not answer within " + AT_ONCE + ": it waits for the connection", e);
        }
    }

    /** The contender nodes ({@code _c_...}) anywhere under {@code path}. */
    private static List<String> contenderNodes(BatonClient client, String path) throws InterruptedException {
        List<String> found = new java.util.ArrayList<>();
        if (client.checkExists().forPath(path) == null) {
            return found;
        }
        for (String child : client.getChildren().forPath(path)) {
            if (child.startsWith("_c_")) {
                found.add(path + "/" + child);
            } else {
                found.addAll(contenderNodes(client, path + "/" + child));
            }
        }
        return found;
    }

    private static <T> T uninterrupted(Blocking<T> call) {
        try {
            return call.call();
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void sessionOnlyPolicyKeepsTheLeaseThroughAShortDisconnect() throws Exception {
        try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1));
             BatonClient client = TestClients.started(BatonClient.builder().connectString(proxy.connectString())
                 .sessionTimeout(Duration.ofSeconds(10)).errorPolicy(ErrorPolicy.SESSION_ONLY))) {
            LockLease lease = new InterProcessMutex(client, "/fault/session-only").acquireLease();

            proxy.cut();
            await().atMost(WAIT).until(() -> client.connectionState() == ConnectionState.SUSPENDED);
            assertThat(lease.isValid()).isTrue();
            healAndReconnect(proxy, client);

            assertThat(lease.isValid()).isTrue();
            lease.release();
        }
    }

    /**
     * A holder frozen while the servers end its session wakes and releases before its client
     * notices: the release cannot show that the hold lasted (the node went with the session), so
     * it throws instead of returning — for a lease and a thread hold, under either policy.
     */
    @ParameterizedTest
    @EnumSource(ErrorPolicy.class)
    void aLeaseReleasedBeforeItsClientHeardOfTheExpiryIsLoud(ErrorPolicy policy) throws Exception {
        LockFaults.releaseUnheardAfterTheSessionEndedIsLoud(ensemble, policy, client -> {
            LockLease lease = new InterProcessMutex(client, "/fault/unheard-lease-" + policy).acquireLease();
            return lease::release;
        });
    }

    @Test
    void aThreadHoldReleasedBeforeItsClientHeardOfTheExpiryIsLoud() throws Exception {
        LockFaults.releaseUnheardAfterTheSessionEndedIsLoud(ensemble, ErrorPolicy.STANDARD, client -> {
            InterProcessMutex mutex = new InterProcessMutex(client, "/fault/unheard-thread");
            mutex.acquire();
            return mutex::release;
        });
    }

    @Test
    void aSemaphoreLeaseReturnedBeforeItsClientHeardOfTheExpiryIsLoud() throws Exception {
        LockFaults.releaseUnheardAfterTheSessionEndedIsLoud(ensemble, ErrorPolicy.SESSION_ONLY, client -> {
            Lease lease = new InterProcessSemaphoreV2(client, "/fault/unheard-semaphore", 1).acquire();
            return lease::close;
        });
    }

    @Test
    void lostReplyDuringAcquireLeavesNoDuplicateNode(BatonClient holderClient) throws Exception {
        InterProcessMutex holder = new InterProcessMutex(holderClient, "/fault/lost-reply");
        LockFaults.lostCreateReplyLeavesNoDuplicateNode(ensemble, holder.acquireLease(), holder::participantNodes,
            client -> new InterProcessMutex(client, "/fault/lost-reply").acquireAsync());
    }

    @Test
    void acquisitionTimingOutWhileDisconnectedLeavesNoOrphan(BatonClient holderClient) throws Exception {
        InterProcessMutex holder = new InterProcessMutex(holderClient, "/fault/orphan");
        LockFaults.acquisitionTimingOutWhileDisconnectedLeavesNoOrphan(ensemble, holder.acquireLease(), holder::participantNodes,
            (client, timeout) -> new InterProcessMutex(client, "/fault/orphan").acquireAsync(timeout));
    }

    @Test
    void semaphoreLeaseLostToExpiryIsLoudAndTheLeaseGoesToTheNext(BatonClient other) throws Exception {
        try (BatonClient victim = TestClients.started(ensemble.connectString(), SHORT_SESSION)) {
            Lease old = new InterProcessSemaphoreV2(victim, "/fault/semaphore", 1).acquire();
            InterProcessSemaphoreV2 semaphore = new InterProcessSemaphoreV2(other, "/fault/semaphore", 1);
            CompletableFuture<Lease> next = semaphore.acquireAsync();

            SessionKiller.expire(victim, ensemble.connectString(), WAIT);

            Lease taken = next.get(20, TimeUnit.SECONDS);
            await().atMost(WAIT).until(() -> !old.isValid());
            assertThatThrownBy(old::close).isInstanceOf(LockOwnershipLostException.class);
            assertThat(semaphore.participantNodes()).containsExactly(taken.nodeName());
            semaphore.returnLease(taken);
        }
    }

    @Test
    void multiLockHoldIsLostWhenAPartIsLostAndTellsOnce(BatonClient other) throws Exception {
        try (BatonClient victim = TestClients.started(ensemble.connectString(), SHORT_SESSION)) {
            InterProcessMultiLock both = new InterProcessMultiLock(victim, List.of("/fault/multi/a", "/fault/multi/b"));
            LockLease lease = both.acquireLease();
            AtomicInteger lostCalls = new AtomicInteger();
            lease.onLost(lostCalls::incrementAndGet);

            SessionKiller.expire(victim, ensemble.connectString(), WAIT);

            InterProcessMultiLock theirs = new InterProcessMultiLock(other, List.of("/fault/multi/a", "/fault/multi/b"));
            assertThat(theirs.acquire(WAIT)).isTrue();
            await().atMost(WAIT).until(() -> !lease.isValid() && lostCalls.get() == 1);
            assertThatThrownBy(lease::release).isInstanceOf(LockOwnershipLostException.class);
            theirs.release();
            // a later event on the victim's executor would have run a second callback by now
            CompletableFuture<Void> drained = new CompletableFuture<>();
            victim.eventExecutor().execute(() -> drained.complete(null));
            drained.get(20, TimeUnit.SECONDS);
            assertThat(lostCalls).hasValue(1);
        }
    }
}
