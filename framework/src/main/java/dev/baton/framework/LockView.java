package dev.baton.framework;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;

/** {@link InterProcessLock#asLock()}: the thread-bound API behind {@link Lock}'s method names. */
final class LockView implements Lock {
    private final InterProcessLock lock;

    LockView(InterProcessLock lock) {
        this.lock = lock;
    }

    /** Acquires, trying again after each interrupt (a Lock's lock() is uninterruptible), then restores the interrupt. */
    @Override
    public void lock() {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    lock.acquire();
                    return;
                } catch (InterruptedException e) {
                    // the interrupted attempt deleted its node; the next one joins the back of the line
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public void lockInterruptibly() throws InterruptedException {
        lock.acquire();
    }

    /** Takes the lock if it is free now (one round of requests to the servers). */
    @Override
    public boolean tryLock() {
        try {
            return lock.acquire(Duration.ZERO);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Waits up to {@code time}; one too long to count in nanoseconds (toNanos saturates) waits as long as it takes. */
    @Override
    public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
        // Duration.of(Long.MAX_VALUE, MINUTES) overflows; Lock's callers pass that to mean "no limit"
        return lock.acquire(time <= 0 ? Duration.ZERO : Duration.ofNanos(unit.toNanos(time)));
    }

    @Override
    public void unlock() {
        lock.release();
    }

    @Override
    public Condition newCondition() {
        throw new UnsupportedOperationException("newCondition() is not supported by " + lock
            + ": a Condition would have to wake threads of other processes, which this lock cannot do;"
            + " wait on a ZooKeeper watch or a DistributedBarrier instead");
    }

    @Override
    public String toString() {
        return "Lock view of " + lock;
    }
}
