package dev.baton.metrics;

import dev.baton.framework.BatonClient;
import dev.baton.framework.BatonObserver;
import dev.baton.framework.ConnectionState;
import dev.baton.framework.ConnectionStateListener;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Binds a {@link BatonClient}, and the recipes built on it, to a Micrometer {@link MeterRegistry}:
 * the client's connection, requests and retries, and the locks, semaphores, elections (led or
 * observed), barriers, queues, discovery, configuration, groups and transactions it runs.
 *
 * <p>How. Binding adds one {@link dev.baton.framework.BatonObserver} and one
 * {@link ConnectionStateListener} to the client; the recipes report through the client, so every
 * recipe built on it (before or after binding) is measured without being named here. Meters are
 * created on first use and cached, so an event costs a map lookup and an atomic update.
 *
 * <p>Cardinality. Recipe paths are never tags: a process may lock one path per order. A recipe is
 * tagged {@code name=<name>} only if its path was given a name with {@link Builder#name}; every
 * other recipe of its kind shares {@code name=unnamed}. Discovery meters are tagged with the
 * service name (the services a process looks up are few). See docs/observability.md for every meter.
 *
 * <p>Guarantees and caveats. Counters and timers count from the moment of binding; gauges of
 * holders, waiters and leaders count what this process did since then (bind before starting
 * recipes, or a hold taken before binding is never seen to end). A {@code BatonMetrics} binds to one
 * registry (use a {@code CompositeMeterRegistry} for several), and one registry takes one live
 * binding per set of common tags (give each client of a process a tag of its own).
 * {@link #close()} stops reporting: it removes the gauges and the long task timer, which would
 * otherwise freeze (and hide those of a client bound later with the same tags), and leaves the
 * counters and timers with their counts. Closing the client closes its binding as well, after the
 * recipes built on it have reported their ends: a process that makes a new client binds it again
 * with the same tags without closing anything else.
 *
 * <pre>{@code
 * BatonMetrics metrics = BatonMetrics.builder(client)
 *     .name("invoices", "/locks/invoices")
 *     .name("scheduler", "/election/scheduler")
 *     .tags(Tags.of("cluster", "zk-eu-1"))
 *     .build();
 * metrics.bindTo(registry);
 * }</pre>
 */
public final class BatonMetrics implements MeterBinder, AutoCloseable {
    /** The {@code name} tag of a recipe whose path was not named. */
    public static final String UNNAMED = "unnamed";
    /** Held while a binding checks for another live one and registers its healthy gauge. */
    private static final Object REGISTERING = new Object();

    private final BatonClient client;
    private final Map<String, String> names;
    private final Tags tags;
    private MeterObserver observer;
    /** Closes this binding when its client has closed: nothing would move its gauges any more. */
    private BatonObserver closer;
    private ConnectionStateListener listener;
    private MeterRegistry bound;
    private final List<Meter> clientGauges = new ArrayList<>();

    private BatonMetrics(Builder builder) {
        this.client = builder.client;
        this.names = Map.copyOf(builder.names);
        this.tags = builder.tags;
    }

    /**
     * Starts a binding of {@code client}.
     *
     * @param client the client to measure (and the recipes built on it)
     * @return a builder
     */
    public static Builder builder(BatonClient client) {
        return new Builder(Objects.requireNonNull(client, "client"));
    }

    /**
     * A binding of {@code client} with no named recipes and no extra tags.
     *
     * @param client the client to measure
     * @return the binding, to be bound with {@link #bindTo}
     */
    public static BatonMetrics of(BatonClient client) {
        return builder(client).build();
    }

    /**
     * Registers the client's gauges and starts reporting events to {@code registry}.
     *
     * @param registry where the meters go
     * @throws IllegalStateException if this binding is already bound, its client is closed (or closes meanwhile), or {@code registry}
     *     already has a live binding with the same common tags (its gauges would hide this one's)
     */
    @Override
    public synchronized void bindTo(MeterRegistry registry) {
        Objects.requireNonNull(registry, "registry");
        if (observer != null) {
            throw new IllegalStateException("this BatonMetrics is already bound to a registry; use a CompositeMeterRegistry for several");
        }
        if (client.isClosed()) {
            throw new IllegalStateException("the client is closed: there is nothing to measure; bind a BatonMetrics of a client"
                + " that is open");
        }
        Meter healthy = registerHealthy(registry);
        Function<String, String> nameOf = path -> path == null ? UNNAMED : names.getOrDefault(path, UNNAMED);
        MeterObserver meters = new MeterObserver(registry, tags, nameOf);
        for (ConnectionState state : ConnectionState.values()) {
            clientGauges.add(Gauge.builder("baton.client.connection.state", client, c -> c.connectionState() == state ? 1 : 0)
                .description("1 for the client's current connection state, 0 for the others")
                .tags(tags).tag("state", state.name().toLowerCase(java.util.Locale.ROOT)).register(registry));
        }
        clientGauges.add(healthy);
        clientGauges.add(TimeGauge.builder("baton.client.session.timeout", client, TimeUnit.MILLISECONDS,
                c -> c.negotiatedSessionTimeout().toMillis())
            .description("the session timeout the ensemble granted").tags(tags).register(registry));
        clientGauges.add(Gauge.builder("baton.client.retries.last.minute", client, c -> c.health().retriesLastMinute())
            .description("operations retried in the last 60 seconds").tags(tags).register(registry));
        ConnectionStateListener states = (c, state) -> meters.connectionStateChanged(state);
        client.addConnectionStateListener(states);
        client.addObserver(meters);
        BatonObserver closing = new BatonObserver() {
            @Override
            public void clientClosed() {
                close();
            }
        };
        client.addObserver(closing); // after the meters' observer: the client's last events are counted first
        this.closer = closing;
        this.observer = meters;
        this.listener = states;
        this.bound = registry;
        if (client.isClosed()) {
            // closed by another thread since the check above, before the closer was added: its clientClosed missed this binding
            close();
            throw new IllegalStateException("the client closed while this BatonMetrics was being bound: there is nothing to "
                + "measure; bind a BatonMetrics of a client that is open");
        }
    }

    /**
     * Registers the healthy gauge, first: a registry hands back the gauge it already has under the same
     * id, so getting back one that was there before means another live binding has these tags. The ids
     * are compared as the registry makes them, after its own filters (common tags of its own, such as
     * Spring Boot's {@code management.metrics.tags}), not as this binding spells them.
     */
    private Meter registerHealthy(MeterRegistry registry) {
        synchronized (REGISTERING) { // two bindings at once: the second sees the first's gauge as there before
            Set<Meter> before = Collections.newSetFromMap(new IdentityHashMap<>());
            before.addAll(registry.find("baton.client.healthy").gauges());
            Gauge healthy = Gauge.builder("baton.client.healthy", client, c -> c.health().healthy() ? 1 : 0)
                .description("1 while BatonClient.health() says healthy (connected to the quorum, session alive)")
                .tags(tags).register(registry);
            if (before.contains(healthy)) {
                throw new IllegalStateException("a client is already bound to this registry with the tags " + tags
                    + ": its gauges would hide this client's; close its BatonMetrics first, or give each client a tag of its own"
                    + " with BatonMetrics.builder(client).tags(Tags.of(\"client\", ...))");
            }
            return healthy;
        }
    }

    /**
     * Stops reporting. The gauges and the long task timer of terms in progress leave the registry
     * (nothing moves them any more, and a client bound later with the same tags shows its own);
     * counters and timers stay with their counts. Closing twice does nothing more. Closing the
     * client closes its binding too, once the recipes built on it have reported their ends.
     */
    @Override
    public synchronized void close() {
        if (observer != null) {
            client.removeObserver(observer);
            client.removeObserver(closer);
            client.removeConnectionStateListener(listener);
            observer.removeNowMeters();
            clientGauges.forEach(bound::remove);
            clientGauges.clear();
        }
    }

    /** Builds a {@link BatonMetrics}; each setting is checked as it is set. */
    public static final class Builder {
        private final BatonClient client;
        private final Map<String, String> names = new HashMap<>();
        private Tags tags = Tags.empty();

        private Builder(BatonClient client) {
            this.client = client;
        }

        /**
         * Tags the recipe at {@code path} (a lock, semaphore, election, barrier, queue, config store, shared
         * value, group or transaction folder) with {@code name=<name>} instead of {@code name=unnamed}. The path is the
         * recipe's as it was given it (relative to its client view's namespace).
         *
         * @param name the tag value, such as {@code invoices}
         * @param path the recipe's path, such as {@code /locks/invoices}
         * @return this builder
         * @throws IllegalArgumentException if {@code name} is blank or {@code path} is already named
         */
        public Builder name(String name, String path) {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(path, "path");
            if (name.isBlank()) {
                throw new IllegalArgumentException("a recipe's name must not be blank (path " + path + ")");
            }
            String before = names.putIfAbsent(path, name);
            if (before != null) {
                throw new IllegalArgumentException("path " + path + " is already named '" + before + "', cannot name it '" + name + "'");
            }
            return this;
        }

        /**
         * Adds tags to every meter of this binding (for example which ensemble the client talks to).
         *
         * @param extra the tags
         * @return this builder
         */
        public Builder tags(Iterable<Tag> extra) {
            this.tags = tags.and(Objects.requireNonNull(extra, "tags"));
            return this;
        }

        /** {@return the binding, to be bound with {@link BatonMetrics#bindTo}} */
        public BatonMetrics build() {
            return new BatonMetrics(this);
        }
    }
}
