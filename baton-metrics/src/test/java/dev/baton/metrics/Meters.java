package dev.baton.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/** Reads meters of a test's registry; a meter not made yet reads as 0. */
final class Meters {
    private Meters() {
    }

    /** The sum over every counter of {@code name} with these tags (and any others). */
    static double count(MeterRegistry registry, String name, String... tags) {
        return registry.find(name).tags(tags).counters().stream().mapToDouble(Counter::count).sum();
    }

    /** Events recorded by every timer of {@code name} with these tags (and any others). */
    static long timed(MeterRegistry registry, String name, String... tags) {
        return registry.find(name).tags(tags).timers().stream().mapToLong(Timer::count).sum();
    }

    static double gauge(MeterRegistry registry, String name, String... tags) {
        Gauge gauge = registry.find(name).tags(tags).gauge();
        return gauge == null ? 0 : gauge.value();
    }
}
