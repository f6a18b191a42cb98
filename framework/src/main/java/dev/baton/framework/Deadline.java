package dev.baton.framework;

import java.time.Duration;
import java.util.Objects;

/**
 * The one way Baton spells "until when" for a blocking wait: a point on the {@link System#nanoTime()}
 * clock (or on a client's {@link Ticker}), or {@link #none()} for "no timeout". It replaces the sentinels that meant "forever" in
 * different places ({@code null}, {@code -1}, {@code Long.MAX_VALUE}).
 *
 * <p>A {@code Duration} too long to count ({@link Timeouts#LONGEST} or more) is a deadline that is
 * never reached, like {@link #none()}, so {@code Deadline.after(ChronoUnit.FOREVER.getDuration())}
 * neither overflows nor wraps round. A zero or negative timeout is a deadline already passed: the
 * caller looks once.
 *
 * <pre>{@code
 * Deadline deadline = timeout == null ? Deadline.none() : Deadline.after(timeout);
 * while (!done()) {
 *     if (deadline.hasPassed()) return false;
 *     TimeUnit.NANOSECONDS.timedWait(monitor, deadline.remainingNanos());
 * }
 * }</pre>
 */
public final class Deadline {
    private static final Deadline NONE = new Deadline(Ticker.system(), 0, true);

    private final Ticker ticker;
    private final long atNanos;
    private final boolean none;

    private Deadline(Ticker ticker, long atNanos, boolean none) {
        this.ticker = ticker;
        this.atNanos = atNanos;
        this.none = none;
    }

    /**
     * {@return the deadline that never passes: no timeout}
     */
    public static Deadline none() {
        return NONE;
    }

    /**
     * The deadline {@code timeout} from now; {@link #none()} for a timeout of {@link Timeouts#LONGEST} or
     * more.
     *
     * @param timeout how long from now (zero or negative: already passed)
     * @return the deadline
     */
    public static Deadline after(Duration timeout) {
        return after(timeout, Ticker.system());
    }

    /**
     * The deadline {@code timeout} from now by {@code ticker} (a client's {@link BatonClient#ticker()}),
     * which then also tells when it has passed.
     *
     * @param timeout how long from now (zero or negative: already passed)
     * @param ticker the clock to read
     * @return the deadline
     */
    public static Deadline after(Duration timeout, Ticker ticker) {
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(ticker, "ticker");
        if (timeout.compareTo(Timeouts.LONGEST) >= 0) {
            return NONE;
        }
        return new Deadline(ticker, ticker.read() + Timeouts.nanos(timeout), false);
    }

    /**
     * {@link #after}, for the timeout a caller gave a public blocking method: a negative one is refused.
     *
     * @param timeout how long from now, not negative (zero: look once)
     * @return the deadline
     * @throws IllegalArgumentException naming the timeout, if it is negative
     */
    public static Deadline afterNonNegative(Duration timeout) {
        return afterNonNegative(timeout, Ticker.system());
    }

    /**
     * {@link #after(Duration, Ticker)}, refusing a negative timeout.
     *
     * @param timeout how long from now, not negative (zero: look once)
     * @param ticker the clock to read
     * @return the deadline
     * @throws IllegalArgumentException naming the timeout, if it is negative
     */
    public static Deadline afterNonNegative(Duration timeout, Ticker ticker) {
        Timeouts.nonNegativeNanos(timeout);
        return after(timeout, ticker);
    }

    /**
     * {@return whether this is {@link #none()}}
     */
    public boolean isNone() {
        return none;
    }

    /**
     * {@return whether the deadline has passed (never, for {@link #none()})}
     */
    public boolean hasPassed() {
        return remainingNanos() <= 0;
    }

    /**
     * {@return the nanoseconds left, zero or negative once passed; {@link Long#MAX_VALUE} for {@link #none()}}
     */
    public long remainingNanos() {
        return none ? Long.MAX_VALUE : atNanos - ticker.read();
    }

    /**
     * {@return the nanoseconds left as a {@link Duration}, at least zero; {@link Timeouts#LONGEST} for {@link #none()}}
     */
    public Duration remaining() {
        return none ? Timeouts.LONGEST : Duration.ofNanos(Math.max(0, remainingNanos()));
    }

    /**
     * The earlier of this deadline and {@code other}.
     *
     * @param other another deadline
     * @return whichever passes first
     */
    public Deadline orEarlier(Deadline other) {
        Objects.requireNonNull(other, "other");
        if (none) {
            return other;
        }
        return other.none || remainingNanos() <= other.remainingNanos() ? this : other;
    }

    @Override
    public String toString() {
        return none ? "Deadline[none]" : "Deadline[in " + Duration.ofNanos(remainingNanos()) + "]";
    }
}
