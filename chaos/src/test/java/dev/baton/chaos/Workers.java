package dev.baton.chaos;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/** Worker threads that repeat a step until told to stop; failures during faults are expected and counted. */
final class Workers {
    /** One step of a worker's loop. */
    @FunctionalInterface
    interface Step {
        /** @return whether the step completed an operation */
        boolean run(int worker) throws Exception;
    }

    private final List<Thread> threads = new ArrayList<>();
    private final AtomicBoolean stop = new AtomicBoolean();
    final AtomicLong operations = new AtomicLong();
    final AtomicLong failures = new AtomicLong();

    void start(String name, int count, Step step) {
        for (int i = 0; i < count; i++) {
            int worker = i;
            Thread t = new Thread(() -> {
                while (!stop.get()) {
                    try {
                        if (step.run(worker)) {
                            operations.incrementAndGet();
                        }
                    } catch (InterruptedException e) {
                        return;
                    } catch (Exception e) {
                        failures.incrementAndGet();
                    }
                }
            }, name + "-" + i);
            t.setDaemon(true);
            t.start();
            threads.add(t);
        }
    }

    boolean stopping() {
        return stop.get();
    }

    /** Paces a worker: waits up to {@code d}, returning early when the workers are told to stop. */
    void pace(java.time.Duration d) throws InterruptedException {
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
}
