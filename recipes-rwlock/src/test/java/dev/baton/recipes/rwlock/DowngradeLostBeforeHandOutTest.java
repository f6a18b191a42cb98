package dev.baton.recipes.rwlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ConnectionState;
import dev.baton.framework.Failures;
import dev.baton.framework.NoNodeException;
import dev.baton.framework.contention.OwnershipLostException;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.ChaosProxy;
import dev.baton.test.EnsembleTest;
import dev.baton.test.HeldBackSteps;
import dev.baton.test.TestClients;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A downgrade whose read node is made just as the connection drops: the read hold is lost before
 * the caller gets it. It must not be handed out as a valid-looking read lease; with the write hold
 * lost too (same connection), the downgrade cannot be made, so it fails with
 * {@link OwnershipLostException}, as its javadoc says, and the read node is given back. The moment
 * is made deterministic by holding back the transaction's reply until the connection is cut.
 */
@EnsembleTest
class DowngradeLostBeforeHandOutTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    EmbeddedEnsemble ensemble;

    /** How the holder downgrades. */
    enum Form {
        /** {@link WriteLease#downgradeAsync()}. */
        WRITE_LEASE,
        /** {@code readLock().acquire()} on the thread that holds the write lock. */
        THREAD,
        /**
         * {@code readLock().acquireAsync()} on the thread that holds the write lock: a retry after
         * giving the lost read hold back would run on an executor thread, which holds no write
         * lock, and wait behind its own write node until the timeout.
         */
        ASYNC
    }

    @ParameterizedTest
    @EnumSource(Form.class)
    void aReadHoldLostAsTheDowngradeIsMadeIsNotHandedOut(Form form, BatonClient other) throws Exception {
        String path = "/downgrade-lost-before-hand-out/" + form;
        try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1));
             BatonClient real = TestClients.started(BatonClient.builder().connectString(proxy.connectString())
                 .sessionTimeout(WAIT).connectionTimeout(WAIT))) {
            HeldBackSteps steps = HeldBackSteps.withCommits(real);
            InterProcessReadWriteLock lock = new InterProcessReadWriteLock(steps.client(), path);
            CompletableFuture<Void> writing = new CompletableFuture<>();
            CompletableFuture<Void> go = new CompletableFuture<>();
            CompletableFuture<Boolean> downgraded = new CompletableFuture<>(); // whether the read hold was valid when got
            Thread holder = new Thread(() -> {
                try {
                    WriteLease lease = form == Form.WRITE_LEASE ? lock.writeLock().acquireLease(WAIT) : null;
                    if (lease == null) {
                        lock.writeLock().acquire();
                    }
                    writing.complete(null);
                    go.get(WAIT.toSeconds(), TimeUnit.SECONDS);
                    if (lease != null) {
                        downgraded.complete(lease.downgradeAsync().get(WAIT.toSeconds(), TimeUnit.SECONDS).isValid());
                    } else if (form == Form.ASYNC) {
                        ReadLease read = lock.readLock().acquireAsync(WAIT).get(2 * WAIT.toSeconds(), TimeUnit.SECONDS);
                        downgraded.complete(read == null ? null : read.isValid());
                    } else {
                        // GrantingLock checks the hold: a read hold handed out here would be the defect
                        downgraded.complete(lock.readLock().acquire(WAIT) ? Boolean.TRUE : null);
                    }
                } catch (Throwable e) {
                    downgraded.completeExceptionally(Failures.unwrap(e));
                }
            }, "downgrader-" + form);
            holder.start();
            writing.get(WAIT.toSeconds(), TimeUnit.SECONDS);

            steps.close();
            go.complete(null);
            await("the read node is made, its reply held back").atMost(WAIT)
                .until(() -> children(other, path).size() == 2 && steps.held() > 0);
            proxy.cut();
            await("the holder's connection is suspended").atMost(WAIT).until(() -> real.connectionState() == ConnectionState.SUSPENDED);
            steps.open(); // the read hold is made now, on a suspended connection
            proxy.heal();

            Throwable failure = null;
            Boolean valid = null;
            try {
                valid = downgraded.get(WAIT.toSeconds(), TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                failure = e.getCause();
            }
            assertThat(valid).as("no read lease handed out (a lost one reads false here)").isNull();
            assertThat(failure).as("the downgrade fails loudly: the write hold was lost as it was made")
                .isInstanceOf(OwnershipLostException.class);
            await("the lost read node is given back; the write node stays until released").atMost(WAIT)
                .until(() -> children(other, path).size() == 1);
            holder.join(WAIT.toMillis());
        }
    }

    private static List<String> children(BatonClient client, String path) throws InterruptedException {
        try {
            return client.getChildren().forPath(path);
        } catch (NoNodeException e) {
            return List.of();
        }
    }
}
