package dev.baton.recipes.lock;

import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.framework.CreateBuilder;
import dev.baton.test.SessionKiller;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.zookeeper.ZooKeeper;

/**
 * A view of a client whose first lease create (a create under {@code leases/}) is caught by the
 * end of its session, the window in which a semaphore waiter holds the internal mutex and sends
 * its lease node: the create reaches the ZooKeeper client after the servers expired the session
 * and before Baton has heard of it, so ZooKeeper answers it with {@code SESSIONEXPIRED}.
 *
 * <p>How the window is held open, for real: the client's ZooKeeper event thread is parked (by
 * a reply callback that waits), the session is expired on the ensemble ({@link SessionKiller}),
 * and the handle waits until its own connection has heard "expired" (state CLOSED). Baton learns
 * of disconnects and expiry on that parked thread, so it still hands the old handle to the
 * create, and ZooKeeper fails it at once; then the event thread is let go and delivers, in
 * order, Disconnected, Expired (Baton builds a new session) and the create's failure.
 * Everything else passes straight through to the real client.
 */
final class SessionEndsDuringLeaseCreate {
    private final BatonClient delegate;
    private final String connectString;
    private final Duration timeout;
    private final BatonClient view;
    private final AtomicBoolean armed = new AtomicBoolean(true);
    private final CompletableFuture<Long> expired = new CompletableFuture<>();

    SessionEndsDuringLeaseCreate(BatonClient delegate, String connectString, Duration timeout) {
        this.delegate = delegate;
        this.connectString = connectString;
        this.timeout = timeout;
        this.view = (BatonClient) Proxy.newProxyInstance(BatonClient.class.getClassLoader(), new Class<?>[] {BatonClient.class},
            (self, method, args) -> method.getName().equals("create") && (args == null || args.length == 0)
                ? watching((CreateBuilder) invoke(delegate, method, args))
                : invoke(delegate, method, args));
    }

    /** The client to build the recipe on. */
    BatonClient client() {
        return view;
    }

    /** Completes with the id of the session that ended once the lease create has been caught by it. */
    CompletableFuture<Long> expiredSession() {
        return expired;
    }

    private CreateBuilder watching(CreateBuilder builder) {
        CreateBuilder[] self = new CreateBuilder[1];
        self[0] = (CreateBuilder) Proxy.newProxyInstance(CreateBuilder.class.getClassLoader(), new Class<?>[] {CreateBuilder.class},
            (proxy, method, args) -> {
                if (method.getName().equals("forPathWithStatAsync") && args[0] instanceof String path
                    && path.contains("/" + InterProcessSemaphoreV2.LEASES + "/") && armed.compareAndSet(true, false)) {
                    return caught(builder, method, args);
                }
                Object result = invoke(builder, method, args);
                return result == builder ? self[0] : result;
            });
        return self[0];
    }

    /** Opens the window on a thread of its own (the caller may be one of the client's), then sends the create into it. */
    private CompletableFuture<Object> caught(CreateBuilder builder, Method method, Object[] args) {
        CompletableFuture<Object> result = new CompletableFuture<>();
        Thread opener = new Thread(() -> {
            CountDownLatch letGo = new CountDownLatch(1);
            try {
                long session = openWindow(letGo);
                CompletableFuture<?> create = (CompletableFuture<?>) invoke(builder, method, args);
                letGo.countDown();
                expired.complete(session);
                create.whenComplete((value, e) -> {
                    if (e != null) {
                        result.completeExceptionally(e);
                    } else {
                        result.complete(value);
                    }
                });
            } catch (Throwable e) {
                letGo.countDown();
                expired.completeExceptionally(e);
                result.completeExceptionally(e);
            }
        }, "session-ends-during-lease-create");
        opener.setDaemon(true);
        opener.start();
        return result;
    }

    private long openWindow(CountDownLatch letGo) throws InterruptedException {
        ZooKeeper zk = delegate.zookeeper();
        long session = zk.getSessionId();
        CountDownLatch parked = new CountDownLatch(1);
        zk.exists("/", false, (rc, path, ctx, stat) -> {
            parked.countDown();
            try {
                letGo.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, null);
        if (!parked.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException("the client's event thread did not run the parking callback within " + timeout);
        }
        SessionKiller.expire(session, zk.getSessionPasswd(), connectString, timeout);
        await().atMost(timeout).until(() -> !zk.getState().isAlive());
        return session;
    }

    private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
