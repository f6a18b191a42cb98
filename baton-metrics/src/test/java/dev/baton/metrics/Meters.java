package dev.baton.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/** Reads meters of a test's registry; a meter not made yet reads as 0. */
final class Meters {
    private Meters() {
    }

    static double count(MeterRegistry registry, String name, String... tags) {
        Counter counter = registry.find(name).tags(tags).counter();
        return counter == null ? 0 : counter.count();
    }

    static long timed(MeterRegistry registry, String name, String... tags) {
        Timer timer = registry.find(name).tags(tags).timer();
        return timer == null ? 0 : timer.count();
    }

    static double gauge(MeterRegistry registry, String name, String... tags) {
        Gauge gauge = registry.find(name).tags(tags).gauge();
        return gauge == null ? 0 : gauge.value();
    }
}
