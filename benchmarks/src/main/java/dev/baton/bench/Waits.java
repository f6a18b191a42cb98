package dev.baton.bench;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.concurrent.locks.LockSupport;

/** The benchmarks' one wait for a condition: a bounded loop that parks between looks. */
final class Waits {
    private Waits() {
    }

    /**
     * Returns once {@code condition} holds, looking every {@code everyNanos}; parking rather than
     * spinning leaves the two cores to the servers and clients being measured. Where a benchmark
     * takes its time inside this wait (not where the event happens), {@code everyNanos} is how late
     * it may notice: keep it small beside the times measured.
     *
     * @param condition what to wait for
     * @param limit how long at most
     * @param everyNanos the pause between looks
     * @throws IllegalStateException if {@code limit} passes first
     */
    static void until(BooleanSupplier condition, Duration limit, long everyNanos) {
        long deadline = System.nanoTime() + limit.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("condition not met within " + limit);
            }
            LockSupport.parkNanos(everyNanos);
        }
    }
}
