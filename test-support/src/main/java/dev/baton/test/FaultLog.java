package dev.baton.test;

import dev.baton.test.Nemesis.Fault;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * What a {@link Nemesis} has done: its log lines ({@code t+<seconds>s ...}, timed from its
 * start), passed on to the caller's sink as they happen, and how many faults of each kind it
 * injected, from which it writes the {@link Nemesis.Report}.
 */
final class FaultLog {
    private final Consumer<String> out;
    private final Map<Fault, Integer> counts = new EnumMap<>(Fault.class);
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private volatile long startNanos;

    FaultLog(Consumer<String> out) {
        this.out = out;
    }

    /** Starts the clock the log lines are timed by. */
    void start() {
        startNanos = System.nanoTime();
    }

    /** {@return when {@link #start()} was called, on {@link System#nanoTime()}'s line} */
    long startNanos() {
        return startNanos;
    }

    /** Logs {@code what}, with the time since the start. */
    void say(String what) {
        String line = String.format("t+%.1fs %s", (System.nanoTime() - startNanos) / 1e9, what);
        lines.add(line);
        out.accept(line);
    }

    /** Counts one fault of {@code kind} as injected. */
    synchronized void count(Fault kind) {
        counts.merge(kind, 1, Integer::sum);
    }

    /** Takes back the count of a fault of {@code kind} that was skipped after all. */
    synchronized void uncount(Fault kind) {
        counts.merge(kind, -1, Integer::sum);
    }

    /** {@return whether every one of {@code kinds} has been injected at least {@code minimum} times} */
    synchronized boolean reached(List<Fault> kinds, int minimum) {
        return kinds.stream().allMatch(f -> counts.getOrDefault(f, 0) >= minimum);
    }

    /** {@return the report of the run so far} */
    synchronized Nemesis.Report report(long seed, List<Fault> asked, int minimum) {
        return new Nemesis.Report(seed, new EnumMap<>(counts), List.copyOf(lines), List.copyOf(asked), minimum);
    }
}
