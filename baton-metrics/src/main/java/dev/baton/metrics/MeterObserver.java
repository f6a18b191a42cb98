package dev.baton.metrics;

import dev.baton.framework.BatonObserver;
import dev.baton.framework.ConnectionState;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.LongTaskTimer;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * The observer {@link BatonMetrics} adds to a client: turns each event into a meter update.
 *
 * <p>Meters are made on first use and cached by their name and tag values, so an event costs a
 * lookup in a concurrent map and the meter's own atomic update, never a registry lookup. Gauges
 * read an {@link AtomicLong} kept here (the registry holds gauges' state weakly; this cache keeps it
 * alive as long as the binding).
 *
 * <p>The meters that show what is happening now (gauges and the long task timer of terms in progress)
 * are removed from the registry when the binding closes: this observer no longer hears the events
 * that move them, and a registry returns the meter already registered under an id, so a client bound
 * later with the same tags would otherwise show this one's frozen values instead of its own.
 */
final class MeterObserver implements BatonObserver {
    private final MeterRegistry registry;
    private final Tags common;
    private final Function<String, String> nameOf;
    private final ConcurrentMap<List<String>, Counter> counters = new ConcurrentHashMap<>();
    private final ConcurrentMap<List<String>, Timer> timers = new ConcurrentHashMap<>();
    private final ConcurrentMap<List<String>, AtomicLong> gauges = new ConcurrentHashMap<>();
    /** Terms in progress, per election meter: started samples, oldest first (guarded by the deque itself). */
    private final ConcurrentMap<List<String>, Deque<LongTaskTimer.Sample>> terms = new ConcurrentHashMap<>();
    private final ConcurrentMap<List<String>, LongTaskTimer> leading = new ConcurrentHashMap<>();
    /** The gauges and long task timers this observer registered: removed from the registry at {@link #removeNowMeters()}. */
    private final Queue<Meter> nowMeters = new ConcurrentLinkedQueue<>();
    private volatile boolean closed;

    MeterObserver(MeterRegistry registry, Tags common, Function<String, String> nameOf) {
        this.registry = registry;
        this.common = common;
        this.nameOf = nameOf;
    }

    // ---- meter cache: a key is the meter's name followed by tag key/value pairs

    private Counter counter(String name, String description, String... tagPairs) {
        return counters.computeIfAbsent(key(name, tagPairs),
            k -> Counter.builder(name).description(description).tags(common).tags(tagPairs).register(registry));
    }

    private Timer timer(String name, String description, String... tagPairs) {
        return timers.computeIfAbsent(key(name, tagPairs),
            k -> Timer.builder(name).description(description).tags(common).tags(tagPairs).register(registry));
    }

    private AtomicLong gauge(String name, String description, String... tagPairs) {
        return gauges.computeIfAbsent(key(name, tagPairs), k -> {
            AtomicLong value = new AtomicLong();
            if (!closed) { // an event that raced the close: count it nowhere rather than register a gauge again
                nowMeters.add(Gauge.builder(name, value, AtomicLong::get).description(description).tags(common).tags(tagPairs)
                    .register(registry));
            }
            return value;
        });
    }

    private static List<String> key(String name, String... tagPairs) {
        String[] all = new String[tagPairs.length + 1];
        all[0] = name;
        System.arraycopy(tagPairs, 0, all, 1, tagPairs.length);
        return List.of(all);
    }

    private static String lower(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** Removes the gauges and long task timers this observer registered; later events register none. */
    void removeNowMeters() {
        closed = true;
        for (Meter meter; (meter = nowMeters.poll()) != null; ) {
            registry.remove(meter);
        }
    }

    // ---- the client

    void connectionStateChanged(ConnectionState state) {
        switch (state) {
            case SUSPENDED -> counter("baton.client.suspensions", "connections lost (the session may live on)").increment();
            case RECONNECTED -> counter("baton.client.reconnects", "connections re-established, same session or a new one").increment();
            case LOST -> counter("baton.client.session.expirations", "sessions lost: expired, or given up after the session timeout").increment();
            case CONNECTED, READ_ONLY -> {
                // the first connection and read-only mode are states, not incidents: the state gauge shows them
            }
        }
    }

    @Override
    public void requestCompleted(String operation, long nanos, boolean succeeded) {
        timer("baton.client.requests", "round trips of ZooKeeper requests, per attempt",
            "operation", operation, "outcome", succeeded ? "success" : "failure").record(nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void retrying(String operation) {
        counter("baton.client.retries", "attempts retried by the retry policy", "operation", operation).increment();
    }

    @Override
    public void retriesExhausted(String operation) {
        counter("baton.client.retries.exhausted", "operations that failed because the retry policy gave up or no connection came in time",
            "operation", operation).increment();
    }

    // ---- locks and semaphores

    @Override
    public void acquireStarted(String recipe, String path) {
        waiters(recipe, path).incrementAndGet();
    }

    @Override
    public void acquireFinished(String recipe, String path, AcquireOutcome outcome, long waitNanos) {
        String name = nameOf.apply(path);
        waiters(recipe, path).decrementAndGet();
        timer("baton.lock.acquire", "time waited to acquire, by outcome", "recipe", recipe, "name", name, "outcome", lower(outcome))
            .record(waitNanos, TimeUnit.NANOSECONDS);
        if (outcome == AcquireOutcome.ACQUIRED) {
            holders(recipe, path).incrementAndGet();
        }
    }

    @Override
    public void holdEnded(String recipe, String path, long heldNanos) {
        holders(recipe, path).decrementAndGet();
        timer("baton.lock.held", "time from acquiring to releasing or losing", "recipe", recipe, "name", nameOf.apply(path))
            .record(heldNanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void holdLost(String recipe, String path) {
        counter("baton.lock.losses", "holds lost before their release", "recipe", recipe, "name", nameOf.apply(path)).increment();
    }

    private AtomicLong waiters(String recipe, String path) {
        return gauge("baton.lock.waiters", "callers of this process waiting to acquire", "recipe", recipe, "name", nameOf.apply(path));
    }

    private AtomicLong holders(String recipe, String path) {
        return gauge("baton.lock.holders", "holds this process has now", "recipe", recipe, "name", nameOf.apply(path));
    }

    // ---- elections

    @Override
    public void leadershipGained(String recipe, String path) {
        String name = nameOf.apply(path);
        leaders(recipe, name).incrementAndGet();
        counter("baton.election.terms", "terms as leader this process began", "recipe", recipe, "name", name).increment();
        if (closed) {
            return; // a term that raced the close: registering the timer again would leave it behind
        }
        Deque<LongTaskTimer.Sample> running = terms(recipe, name);
        LongTaskTimer.Sample started = leading(recipe, name).start();
        synchronized (running) {
            running.addLast(started);
        }
    }

    @Override
    public void leadershipEnded(String recipe, String path, long ledNanos, boolean lost) {
        String name = nameOf.apply(path);
        leaders(recipe, name).decrementAndGet();
        timer("baton.election.leadership", "how long each term of this process lasted", "recipe", recipe, "name", name)
            .record(ledNanos, TimeUnit.NANOSECONDS);
        Deque<LongTaskTimer.Sample> running = terms(recipe, name);
        LongTaskTimer.Sample ended;
        synchronized (running) {
            // several participants of one process in elections sharing a name: any one sample will do, the
            // count and the total stay right; a term begun before binding has none
            ended = running.pollFirst();
        }
        if (ended != null) {
            ended.stop();
        }
        if (lost) {
            counter("baton.election.leadership.losses", "terms lost (session, connection or lease), not given up",
                "recipe", recipe, "name", name).increment();
        }
    }

    private AtomicLong leaders(String recipe, String name) {
        return gauge("baton.election.leader", "1 while a participant of this process leads, else 0", "recipe", recipe, "name", name);
    }

    private LongTaskTimer leading(String recipe, String name) {
        return leading.computeIfAbsent(List.of(recipe, name), k -> {
            LongTaskTimer timer = LongTaskTimer.builder("baton.election.leading")
                .description("terms of this process in progress, and how long they have lasted")
                .tags(common).tags("recipe", recipe, "name", name).register(registry);
            nowMeters.add(timer);
            return timer;
        });
    }

    private Deque<LongTaskTimer.Sample> terms(String recipe, String name) {
        return terms.computeIfAbsent(List.of(recipe, name), k -> new ArrayDeque<>());
    }

    @Override
    public void electionLeaderSeen(String path, boolean hasLeader) {
        String name = nameOf.apply(path);
        gauge("baton.election.observed.leader", "1 while an election this process observes has a leader, else 0", "name", name)
            .set(hasLeader ? 1 : 0);
        counter("baton.election.observed.changes", "leader changes an election observer of this process saw", "name", name).increment();
    }

    // ---- barriers

    @Override
    public void barrierWaitStarted(String recipe, String path) {
        barrierWaiters(recipe, path).incrementAndGet();
    }

    @Override
    public void barrierWaitFinished(String recipe, String path, WaitOutcome outcome, long waitNanos) {
        barrierWaiters(recipe, path).decrementAndGet();
        timer("baton.barrier.wait", "time waited at a barrier, by outcome", "recipe", recipe, "name", nameOf.apply(path),
            "outcome", lower(outcome)).record(waitNanos, TimeUnit.NANOSECONDS);
    }

    private AtomicLong barrierWaiters(String recipe, String path) {
        return gauge("baton.barrier.waiters", "callers of this process waiting at a barrier", "recipe", recipe, "name", nameOf.apply(path));
    }

    // ---- queues

    @Override
    public void queueItemsPut(String path, int count) {
        counter("baton.queue.items.put", "items put", "name", nameOf.apply(path)).increment(count);
    }

    @Override
    public void queueItemsTaken(String path, int count) {
        counter("baton.queue.items.taken", "items taken (polled, or claimed by a consumer)", "name", nameOf.apply(path)).increment(count);
    }

    @Override
    public void queueItemsDeadLettered(String path, int count) {
        counter("baton.queue.items.dead.lettered", "items moved to the dead letters", "name", nameOf.apply(path)).increment(count);
    }

    @Override
    public void queueDepthSeen(String path, long depth) {
        gauge("baton.queue.depth", "items the queue held when this process last looked", "name", nameOf.apply(path)).set(depth);
    }

    @Override
    public void queueTakeWaited(String path, long waitNanos, boolean gotItems) {
        timer("baton.queue.take", "time a blocking take or timed poll waited", "name", nameOf.apply(path),
            "outcome", gotItems ? "item" : "timed-out").record(waitNanos, TimeUnit.NANOSECONDS);
    }

    // ---- discovery

    @Override
    public void serviceInstancesSeen(String service, int count) {
        gauge("baton.discovery.instances", "instances of the service in this process's cache", "service", service).set(count);
    }

    @Override
    public void instancePicked(String service, String strategy, boolean found) {
        counter("baton.discovery.picks", "instances picked by a provider", "service", service, "strategy", strategy,
            "outcome", found ? "found" : "none").increment();
    }

    @Override
    public void instanceMarkedDown(String service) {
        counter("baton.discovery.instances.down", "instances a provider took out after errors", "service", service).increment();
    }

    // ---- configuration and groups

    @Override
    public void configChangeSeen(String recipe, String path) {
        counter("baton.config.changes", "new values or releases this process saw", "recipe", recipe, "name", nameOf.apply(path)).increment();
    }

    @Override
    public void configWritten(String recipe, String path, boolean succeeded) {
        counter("baton.config.writes", "writes by this process, by outcome", "recipe", recipe, "name", nameOf.apply(path),
            "outcome", succeeded ? "success" : "conflict").increment();
    }

    @Override
    public void configReleaseSeen(String recipe, String path, long release, Optional<Duration> sinceCommitted) {
        String name = nameOf.apply(path);
        sinceCommitted.ifPresent(lag -> timer("baton.config.release.lag",
            "time from a release's commit (the writer's clock) until this process's store showed it", "recipe", recipe, "name", name)
            .record(lag));
        gauge("baton.config.release", "the release number this process's store shows", "recipe", recipe, "name", name).set(release);
    }

    @Override
    public void groupMembersSeen(String path, int members) {
        gauge("baton.group.members", "members of the group this process sees", "name", nameOf.apply(path)).set(members);
    }

    // ---- transactions: tagged by the folder's name and fixed words, never by a transaction or participant id

    @Override
    public void transactionStarted(String folder) {
        counter("baton.transaction.started", "transactions a coordinator of this process started", "name", nameOf.apply(folder)).increment();
    }

    @Override
    public void transactionDecided(String folder, boolean committed, String cause, long nanos) {
        String name = nameOf.apply(folder);
        String outcome = committed ? "commit" : "abort";
        counter("baton.transaction.outcomes", "decisions a coordinator of this process read, by outcome and cause",
            "name", name, "outcome", outcome, "cause", cause).increment();
        timer("baton.transaction.decision", "from starting a transaction to reading its decision", "name", name, "outcome", outcome)
            .record(nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void transactionPrepared(String folder, boolean votedCommit, long nanos) {
        timer("baton.transaction.prepare", "how long a participant's prepare ran, by its vote", "name", nameOf.apply(folder),
            "vote", votedCommit ? "commit" : "abort").record(nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void transactionTold(String folder, boolean committed, boolean handled) {
        counter("baton.transaction.told", "decisions a participant of this process told its handler", "name", nameOf.apply(folder),
            "outcome", committed ? "commit" : "abort", "result", handled ? "handled" : "failed").increment();
    }
}
