package dev.baton.chaos;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Worker threads that repeat a step until told to stop. Nothing they throw is swallowed: every
 * exception is counted by type, and one whose type is not among the recipe's documented failures
 * (connection loss, session expiry, a lost lease's release, ...) is kept, with its stack, to fail
 * the run. Each worker's last completed operation is timed, so a run can demand that every worker
 * makes progress once the faults are healed.
 */
final class Workers {
    /** One step of a worker's loop. */
    @FunctionalInterface
    interface Step {
        /** @return whether the step completed an operation */
        boolean run(int worker) throws Exception;
    }

    private final List<Class<? extends Throwable>> documented;
    private final List<Thread> threads = new ArrayList<>();
    private final AtomicBoolean stop = new AtomicBoolean();
    private final Map<String, AtomicLong> exceptions = new ConcurrentHashMap<>();
    private final List<String> surprises = new CopyOnWriteArrayList<>();
    private volatile AtomicLongArray lastDone = new AtomicLongArray(0);
    final AtomicLong operations = new AtomicLong();

    /** Workers whose exceptions of {@code documented} types (and subtypes) are expected under faults. */
    Workers(List<Class<? extends Throwable>> documented) {
        this.documented = List.copyOf(documented);
    }

    void start(String name, int count, Step step) {
        AtomicLongArray done = new AtomicLongArray(threads.size() + count);
        for (int i = 0; i < lastDone.length(); i++) {
            done.set(i, lastDone.get(i));
        }
        lastDone = done;
        int first = threads.size();
        for (int i = 0; i < count; i++) {
            int worker = i;
            int slot = first + i;
            done.set(slot, Long.MIN_VALUE);
            Thread t = new Thread(() -> {
                while (!stop.get()) {
                    try {
                        if (step.run(worker)) {
                            operations.incrementAndGet();
                            lastDone.set(slot, System.nanoTime());
                        }
                    } catch (InterruptedException e) {
                        if (!stop.get()) {
                            failed(name + "-" + worker, e);
                        }
                        return;
                    } catch (Exception | AssertionError e) {
                        failed(name + "-" + worker, e);
                    }
                }
            }, name + "-" + i);
            t.setDaemon(true);
            t.start();
            threads.add(t);
        }
    }

    /** Records an exception from a worker or a callback the workload runs. */
    void failed(String who, Throwable e) {
        exceptions.computeIfAbsent(e.getClass().getSimpleName(), k -> new AtomicLong()).incrementAndGet();
        if (documented.stream().noneMatch(c -> c.isInstance(e))) {
            java.io.StringWriter trace = new java.io.StringWriter();
            e.printStackTrace(new java.io.PrintWriter(trace));
            surprises.add(who + " threw " + trace.toString().lines().limit(12).reduce((a, b) -> a + "\n      " + b).orElse(""));
        }
    }

    /** Exceptions thrown, by type. */
    Map<String, Long> exceptionCounts() {
        Map<String, Long> out = new TreeMap<>();
        exceptions.forEach((k, v) -> out.put(k, v.get()));
        return out;
    }

    /** Exceptions outside the documented failures, each with where it was thrown. */
    List<String> surprises() {
        return List.copyOf(surprises);
    }

    /**
     * Waits until every worker has completed an operation after {@code sinceNanos}, for at most
     * {@code bound}; returns one line per worker that did not (empty: all live).
     */
    List<String> awaitProgress(long sinceNanos, Duration bound) throws InterruptedException {
        long deadline = sinceNanos + bound.toNanos();
        while (System.nanoTime() - deadline < 0 && !allSince(sinceNanos)) {
            pace(Duration.ofMillis(20));
        }
        List<String> stuck = new ArrayList<>();
        for (int i = 0; i < lastDone.length(); i++) {
            long last = lastDone.get(i);
            if (last == Long.MIN_VALUE || last - sinceNanos < 0) {
                stuck.add(threads.get(i).getName() + " completed no operation within " + bound.toMillis()
                    + " ms of the heal (last one " + (last == Long.MIN_VALUE ? "never"
                    : String.format("%.1f s before the heal", (sinceNanos - last) / 1e9)) + "); it is at "
                    + where(threads.get(i)));
            }
        }
        return stuck;
    }

    private boolean allSince(long sinceNanos) {
        for (int i = 0; i < lastDone.length(); i++) {
            if (lastDone.get(i) - sinceNanos < 0 || lastDone.get(i) == Long.MIN_VALUE) {
                return false;
            }
        }
        return true;
    }

    private static String where(Thread t) {
        StringBuilder out = new StringBuilder();
        StackTraceElement[] stack = t.getStackTrace();
        for (int i = 0; i < Math.min(8, stack.length); i++) {
            out.append("\n      at ").append(stack[i]);
        }
        return out.toString();
    }

    boolean stopping() {
        return stop.get();
    }

    /** Paces a worker: waits up to {@code d}, returning early when the workers are told to stop. */
    void pace(Duration d) throws InterruptedException {
        synchronized (stop) {
            if (!stop.get()) {
                stop.wait(Math.max(1, d.toMillis()));
            }
        }
    }

    void stop() throws InterruptedException {
        synchronized (stop) {
            stop.set(true);
            stop.notifyAll();
        }
        for (Thread t : threads) {
            t.join(30_000);
            if (t.isAlive()) {
                t.interrupt();
                t.join(10_000);
            }
        }
    }

    static Set<String> names(List<Class<? extends Throwable>> types) {
        Set<String> out = new java.util.TreeSet<>();
        types.forEach(t -> out.add(t.getSimpleName()));
        return out;
    }
}
