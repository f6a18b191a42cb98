package dev.baton.chaos;

import dev.baton.framework.contention.OwnershipLostException;
import dev.baton.recipes.lock.InterProcessMutex;
import dev.baton.recipes.lock.LockLease;
import java.time.Duration;

/**
 * One worker of the process chaos test, the same whether it runs in a child JVM
 * ({@link MutexWorkerMain}) or on a thread of the test: it takes the mutex, writes to the fenced
 * store a number of times with its token, and gives the mutex back, telling its {@link Sink}
 * what it did ("acquired", "lost", "released", "release-found-lost", each with the token).
 *
 * <p>A {@link Style#FENCED} worker writes its whole batch without looking at its hold again, as
 * a process that relies on the store's fence does: paused past its session, it wakes and goes on
 * writing with its old token. A {@link Style#CAREFUL} worker checks {@code isValid()} before each
 * write — which cannot help a process that was frozen, because nothing in it ran to learn of the
 * loss before the check.
 */
final class MutexWorker {
    /** How a worker treats its hold while it writes. */
    enum Style { FENCED, CAREFUL }

    /** Where a worker's reports and writes go: its parent over the line protocol, or the test directly. */
    interface Sink {
        void report(String kind, long token, String... more);

        /** Writes to the fenced store with {@code token}; whether the store accepted it. */
        boolean write(long token) throws InterruptedException;
    }

    /** How a worker waits between writes (the test's threads stop early; a child JVM just sleeps). */
    interface Pace {
        void pace(Duration d) throws InterruptedException;
    }

    private final InterProcessMutex mutex;
    private final Style style;
    private final int writes;
    private final Duration between;
    private final Sink sink;
    private final Pace pace;

    MutexWorker(InterProcessMutex mutex, Style style, int writes, Duration between, Sink sink, Pace pace) {
        this.mutex = mutex;
        this.style = style;
        this.writes = writes;
        this.between = between;
        this.sink = sink;
        this.pace = pace;
    }

    /** One hold: acquire, write the batch, release. Whether it acquired. */
    boolean step() throws InterruptedException {
        LockLease lease = mutex.acquireLease(Duration.ofSeconds(2));
        if (lease == null) {
            return false;
        }
        long token = lease.fencingToken();
        sink.report("acquired", token, lease.nodePaths().get(0));
        lease.onLost(() -> sink.report("lost", token));
        for (int i = 0; i < writes; i++) {
            if (style == Style.CAREFUL && !lease.isValid()) {
                break;
            }
            sink.write(token);
            pace.pace(between);
        }
        sink.report("released", token);
        try {
            lease.release();
        } catch (OwnershipLostException lostBefore) {
            sink.report("release-found-lost", token);
        }
        return true;
    }
}
