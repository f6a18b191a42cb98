package dev.baton.recipes.rwlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ConnectionState;
import dev.baton.framework.Failures;
import dev.baton.framework.NoNodeException;
import dev.baton.framework.TransactionBuilder;
import dev.baton.framework.contention.OwnershipLostException;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.ChaosProxy;
import dev.baton.test.EnsembleTest;
import dev.baton.test.TestClients;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * {@code readLock().acquireAsync(...)} on the thread that holds the write lock is a downgrade, as
 * {@code readLock().acquire(...)} there is. When its read node is made just as the connection
 * drops, the read hold is lost before the caller gets it, and the write hold with it: the
 * downgrade must fail with {@link OwnershipLostException}, as the blocking form does. Given back
 * and tried again on the executor's thread, which holds no write lock, the acquisition instead
 * became an ordinary read, queued behind the caller's own write node: the caller, waiting for its
 * read lease before releasing the write lock, waited for itself until the timeout.
 *
 * <p>The moment is made deterministic by holding back the downgrade transaction's reply (through a
 * view of the client) until the connection is cut.
 */
@EnsembleTest
class AsyncDowngradeLostTest {
    private static final Duration WAIT = Duration.ofSeconds(10);

    EmbeddedEnsemble ensemble;

    @Test
    void anAsyncDowngradeLostAsItIsMadeFailsInsteadOfWaitingBehindItsOwnWriteNode(BatonClient other) throws Exception {
        String path = "/async-downgrade-lost";
        CompletableFuture<Void> letCommitsThrough = new CompletableFuture<>();
        AtomicReference<CompletableFuture<?>> heldCommit = new AtomicReference<>();
        try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1));
             BatonClient real = TestClients.started(BatonClient.builder().connectString(proxy.connectString())
                 .sessionTimeout(WAIT.multipliedBy(2)).connectionTimeout(WAIT.multipliedBy(2)))) {
            InterProcessReadWriteLock lock = new InterProcessReadWriteLock(viewOf(real, letCommitsThrough, heldCommit), path);
            CompletableFuture<Void> writing = new CompletableFuture<>();
            CompletableFuture<Void> go = new CompletableFuture<>();
            CompletableFuture<ReadLease> downgraded = new CompletableFuture<>();
            Thread holder = new Thread(() -> {
                try {
                    lock.writeLock().acquire();
                    writing.complete(null);
                    go.get(WAIT.toSeconds(), TimeUnit.SECONDS);
                    downgraded.complete(lock.readLock().acquireAsync(WAIT).get(2 * WAIT.toSeconds(), TimeUnit.SECONDS));
                } catch (ExecutionException e) {
                    downgraded.completeExceptionally(Failures.unwrap(e.getCause()));
                } catch (Throwable e) {
                    downgraded.completeExceptionally(e);
                } finally {
                    try {
                        lock.writeLock().release();
                    } catch (RuntimeException lost) {
                        // the write hold went with the connection: its release says so
                    }
                }
            }, "async-downgrader");
            holder.start();
            writing.get(WAIT.toSeconds(), TimeUnit.SECONDS);

            go.complete(null);
            await("the read node is made, its reply held back").atMost(WAIT)
                .until(() -> heldCommit.get() != null && heldCommit.get().isDone());
            proxy.cut();
            await("the holder's connection is suspended").atMost(WAIT).until(() -> real.connectionState() == ConnectionState.SUSPENDED);
            letCommitsThrough.complete(null); // the read hold is made now, on a suspended connection
            proxy.heal();

            Throwable failure = null;
            ReadLease lease = null;
            try {
                lease = downgraded.get(3 * WAIT.toSeconds(), TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                failure = e.getCause();
            }
            assertThat(lease).as("no read lease (null: the acquisition waited behind its own write node until the timeout)").isNull();
            assertThat(failure).as("the downgrade fails loudly, as readLock().acquire() does there").isInstanceOf(OwnershipLostException.class);
            holder.join(WAIT.toMillis());
            await("nothing of the holder is left once it released").atMost(WAIT).until(() -> children(other, path).isEmpty());
        }
    }

    /** A view of {@code real} whose transactions' replies are held back until {@code letThrough} completes. */
    private static BatonClient viewOf(BatonClient real, CompletableFuture<Void> letThrough, AtomicReference<CompletableFuture<?>> held) {
        return (BatonClient) Proxy.newProxyInstance(BatonClient.class.getClassLoader(), new Class<?>[] {BatonClient.class},
            (self, method, args) -> {
                Object result = invoke(real, method, args);
                return method.getName().equals("transaction") ? holdingBack(result, letThrough, held) : result;
            });
    }

    private static TransactionBuilder holdingBack(Object builder, CompletableFuture<Void> letThrough, AtomicReference<CompletableFuture<?>> held) {
        Object[] self = new Object[1];
        self[0] = Proxy.newProxyInstance(TransactionBuilder.class.getClassLoader(), new Class<?>[] {TransactionBuilder.class},
            (proxy, method, args) -> {
                Object result = invoke(builder, method, args);
                if (method.getName().equals("commitAsync") && result instanceof CompletableFuture<?> reply) {
                    held.set(reply);
                    return reply.thenCompose(r -> letThrough.thenApply(x -> r));
                }
                return result == builder ? self[0] : result;
            });
        return (TransactionBuilder) self[0];
    }

    private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
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
