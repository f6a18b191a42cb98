package dev.baton.test;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ExistsBuilder;
import dev.baton.framework.GetChildrenBuilder;
import dev.baton.framework.GetDataBuilder;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.zookeeper.Watcher;

/**
 * A {@link BatonClient} that counts what a recipe asks of it — reads by kind and watch events
 * delivered by type — for tests of herd effects ("one release wakes one waiter").
 *
 * <p>Everything is passed on to the wrapped client unchanged; only the builders of reads
 * ({@code getChildren()}, {@code checkExists()}, {@code getData()}) are wrapped, to count their
 * calls and the events of the watchers set through them.
 *
 * <pre>{@code
 * CountingClient counting = CountingClient.wrap(client);
 * InterProcessMutex mutex = new InterProcessMutex(counting.client(), "/locks/x");
 * ...
 * counting.quiesce(Duration.ofSeconds(5));          // every event already sent has been delivered
 * assertThat(counting.events(EventType.NodeDeleted)).isEqualTo(1);
 * }</pre>
 */
public final class CountingClient {
    /** A kind of read whose calls are counted. */
    public enum Read {
        /** {@code getChildren()} calls. */
        GET_CHILDREN,
        /** {@code checkExists()} calls. */
        CHECK_EXISTS,
        /** {@code getData()} calls. */
        GET_DATA
    }

    private final BatonClient delegate;
    private final BatonClient proxy;
    private final Map<Read, AtomicLong> reads = new ConcurrentHashMap<>();
    private final Map<Watcher.Event.EventType, AtomicLong> events = new ConcurrentHashMap<>();

    private CountingClient(BatonClient delegate) {
        this.delegate = delegate;
        this.proxy = (BatonClient) Proxy.newProxyInstance(BatonClient.class.getClassLoader(),
            new Class<?>[] {BatonClient.class}, this::onClient);
    }

    /**
     * Counts what goes through the returned view of {@code client}.
     *
     * @param client the client to count the calls and events of
     * @return counters for a counting view of {@code client}
     */
    public static CountingClient wrap(BatonClient client) {
        return new CountingClient(Objects.requireNonNull(client, "client"));
    }

    /** {@return the counting view; give it to the recipe under test} */
    public BatonClient client() {
        return proxy;
    }

    /**
     * {@return calls of {@code read} so far}
     *
     * @param read the kind of read
     */
    public long reads(Read read) {
        return reads.computeIfAbsent(read, r -> new AtomicLong()).get();
    }

    /**
     * {@return watch events of {@code type} delivered so far to watchers set through this view}
     *
     * @param type the kind of watch event
     */
    public long events(Watcher.Event.EventType type) {
        return events.computeIfAbsent(type, t -> new AtomicLong()).get();
    }

    /** Sets every counter back to zero. */
    public void reset() {
        reads.clear();
        events.clear();
    }

    /**
     * Waits until every watch event the servers sent before now has been delivered: a sync
     * round trip (ZooKeeper sends a connection's events before later replies), then a pass
     * through the client's event executor (where watchers run, in order).
     *
     * @param timeout how long to wait at most
     * @throws InterruptedException if the calling thread is interrupted while it waits
     */
    public void quiesce(Duration timeout) throws InterruptedException {
        try {
            delegate.sync().forPathAsync("/").get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            CompletableFuture<Void> drained = new CompletableFuture<>();
            delegate.eventExecutor().execute(() -> drained.complete(null));
            drained.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("could not quiesce the client within " + timeout + ": " + e, e);
        }
    }

    private Object onClient(Object self, Method method, Object[] args) throws Throwable {
        Object result = invoke(delegate, method, args);
        return switch (method.getName()) {
            case "getChildren" -> counting(GetChildrenBuilder.class, result, Read.GET_CHILDREN);
            case "checkExists" -> counting(ExistsBuilder.class, result, Read.CHECK_EXISTS);
            case "getData" -> counting(GetDataBuilder.class, result, Read.GET_DATA);
            case "toString" -> "CountingClient(" + delegate + ")";
            default -> result;
        };
    }

    /** A builder proxy: counts the terminal call, wraps watchers, and keeps returning itself for chaining. */
    private <T> T counting(Class<T> type, Object builder, Read read) {
        Object[] holder = new Object[1];
        InvocationHandler handler = (self, method, args) -> {
            Object[] actual = args;
            if (method.getName().equals("usingWatcher") && args != null && args[0] instanceof Watcher watcher) {
                actual = new Object[] {countingWatcher(watcher)};
            }
            if (method.getName().startsWith("forPath")) {
                reads.computeIfAbsent(read, r -> new AtomicLong()).incrementAndGet();
            }
            Object result = invoke(builder, method, actual);
            return result == builder ? holder[0] : result;
        };
        T wrapped = type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, handler));
        holder[0] = wrapped;
        return wrapped;
    }

    private Watcher countingWatcher(Watcher watcher) {
        return event -> {
            events.computeIfAbsent(event.getType(), t -> new AtomicLong()).incrementAndGet();
            watcher.process(event);
        };
    }

    private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
