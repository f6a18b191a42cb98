package dev.baton.framework.internal;

import dev.baton.framework.Blocking;
import dev.baton.framework.Ticker;
import dev.baton.framework.Timeouts;
import java.time.Duration;

/** Time as the framework's retry loop and timers see it; tests substitute a fake one. */
public interface Clock {
    Clock SYSTEM = new Clock() {
        @Override
        public long nanoTime() {
            return System.nanoTime();
        }

        @Override
        public void sleep(Duration duration) throws InterruptedException {
            long nanos = Timeouts.nanos(duration);
            if (nanos > 0) {
                // a blocking call's retry pause, maybe in a continuation on a fork-join pool
                Blocking.managed(() -> {
                    Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000));
                    return null;
                });
            }
        }
    };

    /** The clock that reads {@code ticker} (a client's) and sleeps in real time. */
    static Clock of(Ticker ticker) {
        return new Clock() {
            @Override
            public long nanoTime() {
                return ticker.read();
            }

            @Override
            public void sleep(Duration duration) throws InterruptedException {
                SYSTEM.sleep(duration);
            }
        };
    }

    /** A monotonic reading in nanoseconds, as {@link System#nanoTime()}. */
    long nanoTime();

    /** Waits {@code duration}; the only place the framework sleeps. */
    void sleep(Duration duration) throws InterruptedException;
}
