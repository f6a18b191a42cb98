package dev.baton.recipes.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ConnectionState;
import dev.baton.framework.NoNodeException;
import dev.baton.framework.contention.Grant;
import dev.baton.framework.contention.SharedTicket;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.ChaosProxy;
import dev.baton.test.EnsembleTest;
import dev.baton.test.HeldBackSteps;
import dev.baton.test.TestClients;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What {@link LostBeforeHandOutTest} asks of the locks, asked of the semaphore (whose leases are
 * not made by {@code GrantingLock}) and of the grants made of several holds: a lease or a part lost
 * between its grant and its hand-out is never handed out. The caller gets only leases that are
 * valid when it gets them, and nothing of the lost ones is left in the semaphore's folder.
 */
@EnsembleTest
class SemaphoreLostBeforeHandOutTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    EmbeddedEnsemble ensemble;

    /**
     * How the waiter asks for its lease: the semaphore's own forms, and the semaphore mutex (a
     * {@code GrantingLock} over the semaphore's hold, covered by a763fb3: passes before and after).
     */
    enum Form { BLOCKING, ASYNC, SHARED_TICKET, SEMAPHORE_MUTEX }

    /** A grant of several holds, taken one after the other. */
    enum Several { SEMAPHORE_LEASES, MULTI_LOCK }

    @ParameterizedTest
    @EnumSource(Form.class)
    void aLeaseLostOnItsWayToTheCallerIsGivenBackAndTheCallerGetsAValidOne(Form form, BatonClient other) throws Exception {
        String path = "/semaphore-lost-before-hand-out/" + form;
        String leases = path + "/" + InterProcessSemaphoreV2.LEASES;
        try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1));
             BatonClient real = TestClients.started(BatonClient.builder().connectString(proxy.connectString())
                 .sessionTimeout(WAIT).connectionTimeout(WAIT))) {
            HeldBackSteps steps = HeldBackSteps.of(real);
            Grant first = form == Form.SEMAPHORE_MUTEX ? new InterProcessSemaphoreMutex(other, path).acquireLease()
                : new InterProcessSemaphoreV2(other, path, 1).acquire();
            String firstNode = name(first);

            CompletableFuture<Grant> got = new CompletableFuture<>();
            CompletableFuture<Boolean> validWhenGot = new CompletableFuture<>();
            Thread caller = new Thread(() -> {
                try {
                    Grant lease = switch (form) {
                        case BLOCKING -> new InterProcessSemaphoreV2(steps.client(), path, 1).acquire(WAIT);
                        case ASYNC -> new InterProcessSemaphoreV2(steps.client(), path, 1).acquireAsync(WAIT)
                            .get(WAIT.toSeconds(), TimeUnit.SECONDS);
                        case SHARED_TICKET -> new InterProcessSemaphoreV2(steps.client(), path, 1, SharedTicket.defaults()).acquire(WAIT);
                        case SEMAPHORE_MUTEX -> new InterProcessSemaphoreMutex(steps.client(), path).acquireLease(WAIT);
                    };
                    validWhenGot.complete(lease != null && lease.isValid());
                    got.complete(lease);
                } catch (Throwable e) {
                    got.completeExceptionally(e);
                }
            }, "waiter-" + form);
            caller.start();

            await("the waiter's lease node waits for the holder's").atMost(WAIT).until(() -> children(other, leases).size() == 2);
            String waitersFirstNode = children(other, leases).stream().filter(n -> !n.equals(firstNode)).findFirst().orElseThrow();

            steps.close();
            first.close();
            // the count let the waiter in: it gave the internal mutex back, and its hand-out is held back
            await("the waiter is granted its lease").atMost(WAIT)
                .until(() -> children(other, path + "/" + InterProcessSemaphoreV2.LOCKS).isEmpty() && steps.held() > 0);
            proxy.cut();
            await("the waiter's connection is suspended").atMost(WAIT).until(() -> real.connectionState() == ConnectionState.SUSPENDED);
            steps.open(); // the hand-out runs now, on a suspended connection
            proxy.heal();

            Grant lease = got.get(WAIT.toSeconds(), TimeUnit.SECONDS);
            assertThat(lease).as("a lease within the timeout").isNotNull();
            assertThat(name(lease)).as("a new lease node, not the lost one").isNotEqualTo(waitersFirstNode);
            assertThat(validWhenGot.get()).as("the lease was valid when the caller got it").isTrue();
            await("the lost lease's node is given back").atMost(WAIT).until(() -> children(other, leases).size() == 1);
            assertThat(children(other, leases)).containsExactly(name(lease));
            lease.close();
        }
    }

    @ParameterizedTest
    @EnumSource(Several.class)
    void aHoldLostWhileTheOthersAreTakenIsNotHandedOut(Several kind, BatonClient other) throws Exception {
        String path = "/lost-while-the-others-are-taken/" + kind;
        try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1));
             BatonClient real = TestClients.started(BatonClient.builder().connectString(proxy.connectString())
                 .sessionTimeout(WAIT).connectionTimeout(WAIT))) {
            // the other client holds what the waiter takes last: the waiter holds the first part and waits
            AutoCloseable theOthersHold;
            CompletableFuture<List<Boolean>> validWhenGot = new CompletableFuture<>();
            CompletableFuture<AutoCloseable> got = new CompletableFuture<>();
            Thread caller;
            String waits;
            if (kind == Several.SEMAPHORE_LEASES) {
                theOthersHold = new InterProcessSemaphoreV2(other, path, 2).acquire();
                InterProcessSemaphoreV2 semaphore = new InterProcessSemaphoreV2(real, path, 2);
                caller = new Thread(() -> report(() -> {
                    Collection<Lease> all = semaphore.acquire(2, WAIT);
                    validWhenGot.complete(all.stream().map(Lease::isValid).toList());
                    return () -> semaphore.returnAll(all);
                }, got));
                waits = path + "/" + InterProcessSemaphoreV2.LEASES;
            } else {
                theOthersHold = new InterProcessMutex(other, path + "/b").acquireLease();
                InterProcessMultiLock both = new InterProcessMultiLock(real, List.of(path + "/a", path + "/b"));
                caller = new Thread(() -> report(() -> {
                    LockLease lease = both.acquireLease(WAIT);
                    validWhenGot.complete(List.of(lease.isValid()));
                    return lease;
                }, got));
                waits = path + "/b";
            }
            caller.start();
            int behind = kind == Several.SEMAPHORE_LEASES ? 3 : 2;
            await("the waiter holds its first part and waits for the next").atMost(WAIT)
                .until(() -> children(other, waits).size() == behind);

            proxy.cut(); // the first part is lost (SUSPENDED, under the default error policy)
            await("the waiter's connection is suspended").atMost(WAIT).until(() -> real.connectionState() == ConnectionState.SUSPENDED);
            proxy.heal();
            await("the waiter's connection is back").atMost(WAIT).until(() -> real.connectionState().isConnected());
            theOthersHold.close();

            AutoCloseable held = got.get(WAIT.toSeconds(), TimeUnit.SECONDS);
            assertThat(validWhenGot.get()).as("every part was valid when the caller got it").doesNotContain(false);
            held.close(); // would throw if a part had been lost
        }
    }

    /** Runs an acquisition on the caller's thread and says what it got (what to close). */
    private static void report(Acquisition acquisition, CompletableFuture<AutoCloseable> got) {
        try {
            got.complete(acquisition.run());
        } catch (Throwable e) {
            got.completeExceptionally(e);
        }
    }

    @FunctionalInterface
    private interface Acquisition {
        AutoCloseable run() throws Exception;
    }

    /** The name of a lease's node in {@code leases/}. */
    private static String name(Grant lease) {
        String node = lease.nodePaths().get(0);
        return node.substring(node.lastIndexOf('/') + 1);
    }

    private static List<String> children(BatonClient client, String path) throws InterruptedException {
        try {
            return client.getChildren().forPath(path);
        } catch (NoNodeException e) {
            return List.of(); // a container reaped while empty
        }
    }
}
