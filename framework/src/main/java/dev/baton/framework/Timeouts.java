package dev.baton.framework;

import java.time.Duration;
import java.util.Objects;

/**
 * A caller's timeout as a count of nanoseconds or milliseconds, for deadlines on
 * {@link System#nanoTime()}. Every blocking call in Baton that takes a {@link Duration} converts
 * it here, so a timeout too long to count — {@code Duration.ofMillis(Long.MAX_VALUE)},
 * {@code ChronoUnit.FOREVER.getDuration()} — means "wait as long as it takes" instead of failing
 * with an {@link ArithmeticException} ({@link Duration#toNanos()} overflows past about 292 years)
 * or wrapping round into a deadline that has already passed ({@code nanoTime() + nanos} overflows
 * past about 146).
 *
 * <pre>{@code
 * long deadline = System.nanoTime() + Timeouts.nanos(timeout);   // never overflows
 * }</pre>
 */
public final class Timeouts {
    /** The longest wait a timeout stands for, 2^62 ns (about 146 years); longer ones are cut to it. */
    public static final Duration LONGEST = Duration.ofNanos(1L << 62);

    private Timeouts() {
    }

    /**
     * {@code timeout} in nanoseconds, at most {@link #LONGEST}'s, so that adding it to a
     * {@link System#nanoTime()} reading cannot overflow.
     *
     * @param timeout a timeout
     * @return the timeout in nanoseconds, at most {@link #LONGEST}'s
     */
    public static long nanos(Duration timeout) {
        Objects.requireNonNull(timeout, "timeout");
        return timeout.compareTo(LONGEST) >= 0 ? LONGEST.toNanos() : timeout.toNanos();
    }

    /**
     * {@link #nanos}, for a call whose timeout must not be negative.
     *
     * @param timeout a timeout, not negative
     * @return the timeout in nanoseconds, at most {@link #LONGEST}'s
     * @throws IllegalArgumentException naming the timeout, if it is negative
     */
    public static long nonNegativeNanos(Duration timeout) {
        return nanos(nonNegative(timeout));
    }

    /**
     * {@code timeout}, checked for a public call that takes one: not null, not negative
     * ({@link Duration#ZERO}: look once).
     *
     * @param timeout a timeout, not negative
     * @return {@code timeout}
     * @throws IllegalArgumentException naming the timeout, if it is negative
     */
    public static Duration nonNegative(Duration timeout) {
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative()) {
            throw new IllegalArgumentException("timeout must not be negative, was " + timeout);
        }
        return timeout;
    }

    /**
     * {@code timeout} in milliseconds, at most {@link #LONGEST}'s.
     *
     * @param timeout a timeout
     * @return the timeout in milliseconds, at most {@link #LONGEST}'s
     */
    public static long millis(Duration timeout) {
        return nanos(timeout) / 1_000_000;
    }
}
