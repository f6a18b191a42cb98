package dev.baton.spring.observe;

import dev.baton.metrics.BatonMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Objects;

/**
 * A {@link BatonMetrics} bound to the application context's {@link MeterRegistry}; closing it (the
 * context does) stops the reporting.
 *
 * <p>Why a holder and not a {@code BatonMetrics} bean: Boot's metrics auto-configuration binds
 * every {@code MeterBinder} bean to the registries it manages, and a {@code BatonMetrics} binds to
 * one registry only (a second bind fails). Binding here, when the bean is created, also puts the
 * binding before the recipes the context starts later (the leader initiator, the discovery
 * registration), so their gauges count from their start.
 */
public final class BatonMetricsBinding implements AutoCloseable {
    private final BatonMetrics metrics;

    /**
     * Binds {@code metrics} to {@code registry}.
     *
     * @param metrics the binding of a client, not yet bound
     * @param registry where the meters go
     * @throws IllegalStateException if {@code metrics} is already bound
     */
    public BatonMetricsBinding(BatonMetrics metrics, MeterRegistry registry) {
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        metrics.bindTo(Objects.requireNonNull(registry, "registry"));
    }

    /**
     * The bound metrics.
     *
     * @return the metrics
     */
    public BatonMetrics metrics() {
        return metrics;
    }

    /** Stops reporting; the gauges leave the registry, the counters and timers stay (see {@link BatonMetrics#close()}). */
    @Override
    public void close() {
        metrics.close();
    }
}
