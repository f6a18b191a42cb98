package dev.baton.test;

import dev.baton.framework.BatonClient;
import dev.baton.framework.TransactionBuilder;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * A view of a client whose recipe steps can be held back: the view's
 * {@link BatonClient#asyncExecutor()} (where the contention engine runs its steps and recipes hand
 * out what they acquired) queues tasks while the gate is {@link #close() closed} and runs them, in
 * order, when it is {@link #open() opened}. Optionally the replies to transactions made through the
 * view ({@code commitAsync}) come through the gate too. Everything else goes to the wrapped client
 * unchanged.
 *
 * <p>For tests of the moment between a grant and its hand-out: close the gate, let the line reach
 * the recipe, cut its connection ({@link ChaosProxy#cut()}), then open the gate: the held-back step
 * runs on a suspended connection, deterministically.
 *
 * <pre>{@code
 * HeldBackSteps steps = HeldBackSteps.of(client);
 * InterProcessSemaphoreV2 semaphore = new InterProcessSemaphoreV2(steps.client(), "/s", 1);
 * steps.close();
 * ... // the holder returns its lease; the waiter's hand-out is held back
 * proxy.cut();
 * steps.open();
 * }</pre>
 */
public final class HeldBackSteps implements Executor {
    private final Executor next;
    private final BatonClient view;
    private final List<Runnable> held = new ArrayList<>();
    /** The latest reply of a read ({@code getData}, {@code checkExists}) per path, sent through the view. */
    private final Map<String, CompletableFuture<?>> reads = new ConcurrentHashMap<>();
    private boolean closed;
    /** The folder whose next listing's reply closes the gate before the recipe sees it, or null. */
    private String closeAtListingOf;

    private HeldBackSteps(BatonClient real, boolean commits) {
        this.next = real.asyncExecutor();
        this.view = (BatonClient) Proxy.newProxyInstance(BatonClient.class.getClassLoader(), new Class<?>[] {BatonClient.class},
            (self, method, args) -> {
                if (method.getName().equals("asyncExecutor")) {
                    return this;
                }
                Object result = invoke(real, method, args);
                if (method.getName().equals("getData") || method.getName().equals("checkExists")) {
                    return recording(method.getReturnType(), result);
                }
                if (method.getName().equals("getChildren")) {
                    return listing(method.getReturnType(), result);
                }
                return commits && result instanceof TransactionBuilder transaction ? gated(transaction) : result;
            });
    }

    /**
     * {@return a gate on {@code client}'s async executor, open}
     *
     * @param client the real client
     */
    public static HeldBackSteps of(BatonClient client) {
        return new HeldBackSteps(Objects.requireNonNull(client, "client"), false);
    }

    /**
     * {@return a gate on {@code client}'s async executor and on the replies to its transactions, open}
     *
     * @param client the real client
     */
    public static HeldBackSteps withCommits(BatonClient client) {
        return new HeldBackSteps(Objects.requireNonNull(client, "client"), true);
    }

    /** {@return the view to build the recipe under test on} */
    public BatonClient client() {
        return view;
    }

    /**
     * {@return whether a read of {@code path} through the view ({@code getData} or
     * {@code checkExists}, such as the engine's watch on the node it waits behind) was answered}
     *
     * @param path the node's path, as the recipe passes it
     */
    public boolean answered(String path) {
        CompletableFuture<?> reply = reads.get(path);
        return reply != null && reply.isDone();
    }

    /** Holds back every task (and, with commits, every transaction's reply) from now on. */
    public synchronized void close() {
        closed = true;
    }

    /**
     * Closes the gate when the next listing of {@code path} through the view ({@code getChildren})
     * is answered, before the recipe sees the reply: for recipes that list the line again before
     * they grant (an election), so the step that grants is the one held back.
     *
     * @param path the folder, as the recipe passes it
     */
    public synchronized void closeAtNextListing(String path) {
        closeAtListingOf = Objects.requireNonNull(path, "path");
    }

    /** {@return how many tasks are held back now} */
    public synchronized int held() {
        return held.size();
    }

    /**
     * Runs what was held back, in order, lets everything through from now on, and returns once the
     * held-back tasks have run: a test may heal the connection only then, or on a slow machine the
     * client could reconnect before the step that grants runs.
     *
     * @throws InterruptedException if the calling thread is interrupted while it waits
     * @throws IllegalStateException if the held-back tasks did not run within 20 seconds
     */
    public void open() throws InterruptedException {
        List<Runnable> release;
        synchronized (this) {
            closed = false;
            release = new ArrayList<>(held);
            held.clear();
        }
        CountDownLatch ran = new CountDownLatch(release.size());
        for (Runnable task : release) {
            next.execute(() -> {
                try {
                    task.run();
                } finally {
                    ran.countDown();
                }
            });
        }
        if (!ran.await(20, TimeUnit.SECONDS)) {
            throw new IllegalStateException(ran.getCount() + " of " + release.size() + " held-back steps did not run within 20 s");
        }
    }

    @Override
    public void execute(Runnable task) {
        synchronized (this) {
            if (closed) {
                held.add(task);
                return;
            }
        }
        next.execute(task);
    }

    /** A read builder (fluent: its setters return itself) whose async replies are kept in {@link #reads} by path. */
    private Object recording(Class<?> type, Object builder) {
        Object[] self = new Object[1];
        self[0] = Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (proxy, method, args) -> {
            Object result = invoke(builder, method, args);
            if (method.getName().equals("forPathAsync") && args != null && args[0] instanceof String path
                && result instanceof CompletableFuture<?> reply) {
                reads.put(path, reply);
            }
            return result == builder ? self[0] : result;
        });
        return self[0];
    }

    /** A listing builder whose async replies close the gate first when {@link #closeAtNextListing} asked for it. */
    private Object listing(Class<?> type, Object builder) {
        Object[] self = new Object[1];
        self[0] = Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (proxy, method, args) -> {
            Object result = invoke(builder, method, args);
            if (method.getName().equals("forPathAsync") && args != null && args[0] instanceof String path
                && result instanceof CompletableFuture<?> reply) {
                CompletableFuture<Object> seen = new CompletableFuture<>();
                reply.whenComplete((value, e) -> {
                    synchronized (this) {
                        if (path.equals(closeAtListingOf)) {
                            closeAtListingOf = null;
                            closed = true;
                        }
                    }
                    if (e != null) {
                        seen.completeExceptionally(e);
                    } else {
                        seen.complete(value);
                    }
                });
                return seen;
            }
            return result == builder ? self[0] : result;
        });
        return self[0];
    }

    /** A transaction builder whose {@code commitAsync} reply is delivered through the gate. */
    private TransactionBuilder gated(TransactionBuilder transaction) {
        Object[] self = new Object[1];
        self[0] = Proxy.newProxyInstance(TransactionBuilder.class.getClassLoader(), new Class<?>[] {TransactionBuilder.class},
            (proxy, method, args) -> {
                Object result = invoke(transaction, method, args);
                if (method.getName().equals("commitAsync") && result instanceof CompletableFuture<?> reply) {
                    CompletableFuture<Object> late = new CompletableFuture<>();
                    reply.whenCompleteAsync((value, e) -> {
                        if (e != null) {
                            late.completeExceptionally(e);
                        } else {
                            late.complete(value);
                        }
                    }, this);
                    return late;
                }
                return result == transaction ? self[0] : result;
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
}
