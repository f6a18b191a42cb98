package dev.baton.test;

import java.time.Duration;

/**
 * The waits of a {@link Nemesis}: the quiet between faults and the hold of a fault, each cut
 * short when the nemesis stops, and the heal of the fault in effect, kept so that whoever stops
 * the nemesis can run it (once: the hold and the stop take it under one lock).
 */
final class FaultPacing {
    private final Object lock = new Object();
    private volatile boolean stopping;
    private Runnable healCurrent;

    /** {@return whether the nemesis is stopping: no wait lasts and no new fault should begin} */
    boolean stopping() {
        return stopping;
    }

    /** Ends every wait now and every later one at once. */
    void stop() {
        stopping = true;
        synchronized (lock) {
            lock.notifyAll();
        }
    }

    /** Waits {@code d} unless stopped first; returns false when stopped. */
    boolean quiet(Duration d) throws InterruptedException {
        long deadline = System.nanoTime() + d.toNanos();
        synchronized (lock) {
            while (!stopping) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return true;
                }
                lock.wait(Math.max(1, left / 1_000_000));
            }
        }
        return false;
    }

    /** Keeps a fault in effect for {@code length} (or until stop), then heals it unless the stop took the heal. */
    void hold(Duration length, Runnable heal) throws InterruptedException {
        synchronized (lock) {
            healCurrent = heal;
        }
        quiet(length);
        synchronized (lock) {
            if (healCurrent != null) {
                healCurrent = null;
                heal.run();
            }
        }
    }

    /** {@return the heal of the fault in effect, or null if none; a hold then no longer runs it} */
    Runnable takeHeal() {
        synchronized (lock) {
            Runnable heal = healCurrent;
            healCurrent = null;
            return heal;
        }
    }
}
