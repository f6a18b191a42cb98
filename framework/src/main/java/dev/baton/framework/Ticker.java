package dev.baton.framework;

/**
 * The client's clock: a monotonic reading in nanoseconds, as {@link System#nanoTime()}. One per
 * client ({@link BatonClient#ticker()}, set with {@link BatonClient.Builder#ticker}), so that the
 * retry loop's elapsed-time policies and the deadlines recipes make with
 * {@link Deadline#after(java.time.Duration, Ticker)} read the same time, and a test can drive it.
 *
 * <p>Caveat: a ticker decides when a deadline has passed; it does not make anything wake sooner. A
 * wait sleeps for the time its deadline has left by this ticker, in real time, and looks again when
 * it wakes or is woken.
 *
 * <pre>{@code
 * AtomicLong now = new AtomicLong();
 * BatonClient client = BatonClient.builder().connectString(hosts).ticker(now::get).build();
 * }</pre>
 */
@FunctionalInterface
public interface Ticker {
    /**
     * {@return a monotonic reading in nanoseconds; only differences between readings mean anything}
     */
    long read();

    /**
     * {@return the ticker of {@link System#nanoTime()}, every client's default}
     */
    static Ticker system() {
        return System::nanoTime;
    }
}
