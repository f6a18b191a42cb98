package dev.baton.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.BooleanSupplier;

/**
 * One way of the config benchmark's propagation to write the value and one set of watchers of it,
 * with their arrival times for the current round; each watcher calls {@link #heard} where its
 * value arrives. Also the config benchmark's one wait ({@link #awaitTrue}).
 */
final class PropagationSide {
    /** How long the config benchmark waits for a store to load or a value to arrive before it gives up. */
    static final Duration WAIT = Duration.ofSeconds(60);

    /** The writer's call: sends {@code value} the way this side writes. */
    @FunctionalInterface
    interface Write {
        void send(String value) throws Exception;
    }

    final String name;
    private final Write write;
    private AtomicLongArray seen;
    private volatile String expected = "";
    /** Each round's write call alone, in ms. */
    final List<Double> writeMs = new ArrayList<>();

    PropagationSide(String name, Write write) {
        this.name = name;
        this.write = write;
    }

    /** Watcher {@code watcher} has been told {@code value}: its arrival time counts if it is this round's value. */
    void heard(int watcher, String value) {
        // expected first: written after seen, so a round's value comes with its array; before the first round there
        // is none (a Baton value's listener also hears the first load, the seed's empty value)
        if (value.equals(expected)) {
            AtomicLongArray round = seen;
            if (round != null) {
                round.compareAndSet(watcher, 0, System.nanoTime());
            }
        }
    }

    /** Writes {@code value} and returns each of the {@code n} watchers' delay, in ms. */
    double[] round(int n, String value) throws Exception {
        seen = new AtomicLongArray(n);
        expected = value;
        long start = System.nanoTime();
        write.send(value);
        writeMs.add((System.nanoTime() - start) / 1e6);
        awaitTrue(() -> {
            for (int i = 0; i < n; i++) {
                if (seen.get(i) == 0) {
                    return false;
                }
            }
            return true;
        });
        double[] ms = new double[n];
        for (int i = 0; i < n; i++) {
            ms[i] = (seen.get(i) - start) / 1e6;
        }
        return ms;
    }

    /** Checks the condition every 50 µs; the measured times are taken where the value arrives, so how late this notices does not count. */
    static void awaitTrue(BooleanSupplier condition) {
        Waits.until(condition, WAIT, 50_000);
    }
}
