package dev.baton.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * One way of {@link ConfigPropagation} to write the value and one set of watchers of it, with
 * their arrival times for the current round. The ways are made by {@link PropagationSides} and
 * {@link ReleaseFloors}; each watcher calls {@link #heard} where its value arrives.
 */
final class PropagationSide {
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
        if (value.equals(expected)) {
            seen.compareAndSet(watcher, 0, System.nanoTime());
        }
    }

    /** Writes {@code value} and returns each of the {@code n} watchers' delay, in ms. */
    double[] round(int n, String value) throws Exception {
        seen = new AtomicLongArray(n);
        expected = value;
        long start = System.nanoTime();
        write.send(value);
        writeMs.add((System.nanoTime() - start) / 1e6);
        ConfigBenchmark.awaitTrue(() -> {
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
}
