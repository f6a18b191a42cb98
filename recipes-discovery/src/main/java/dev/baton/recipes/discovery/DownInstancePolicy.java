package dev.baton.recipes.discovery;

import java.time.Duration;
import java.util.Objects;

/**
 * When a {@link ServiceProvider} stops handing out an instance its callers report errors on
 * ({@link ServiceProvider#noteError}): after {@code errorThreshold} errors within
 * {@code errorWindow} the instance is taken out for {@code downTime}, then offered again with a
 * clean slate. Another error while it is out extends the time out. Errors are counted per
 * instance id, per provider (they are this process's opinion, not shared through ZooKeeper).
 *
 * @param errorThreshold errors that take an instance out, 1 or more
 * @param errorWindow how far apart those errors may be: the count restarts when the first error
 *     of the current count is older than this
 * @param downTime how long an instance stays out
 */
public record DownInstancePolicy(int errorThreshold, Duration errorWindow, Duration downTime) {
    /** Two errors within 30 s take an instance out for 30 s (Curator's default threshold and time). */
    public static final DownInstancePolicy DEFAULT = new DownInstancePolicy(2, Duration.ofSeconds(30), Duration.ofSeconds(30));

    /**
     * Checks the settings: a threshold of 1 or more, a positive window and down time.
     *
     * @param errorThreshold errors that take an instance out, 1 or more
     * @param errorWindow how far apart those errors may be
     * @param downTime how long an instance stays out
     */
    public DownInstancePolicy {
        if (errorThreshold < 1) {
            throw new IllegalArgumentException("errorThreshold must be 1 or more, was " + errorThreshold);
        }
        positive("errorWindow", errorWindow);
        positive("downTime", downTime);
    }

    /** {@return a policy that never takes an instance out} */
    public static DownInstancePolicy never() {
        return new DownInstancePolicy(Integer.MAX_VALUE, Duration.ofNanos(1), Duration.ofNanos(1));
    }

    private static void positive(String name, Duration value) {
        Objects.requireNonNull(value, name);
        if (value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(name + " must be positive, was " + value);
        }
    }
}
