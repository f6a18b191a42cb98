package dev.baton.chaos;

import dev.baton.framework.BatonClient;
import dev.baton.framework.contention.Grant;
import dev.baton.framework.contention.OwnershipLostException;
import dev.baton.recipes.lock.InterProcessMutex;
import java.time.Duration;

/**
 * One worker of the process chaos test, the same whether it runs in a child JVM
 * ({@link MutexWorkerMain}) or on a thread of the test: it takes the mutex, writes to the fenced
 * store a number of times with its token, and gives the mutex back, telling its {@link Sink}
 * what it did: "acquired" (token, node, session), "released"
 * (token, said before the release is sent), "release-found-lost" (token), and the recipe's own
 * loss signals — "lost" (token) when the grant's loss callback fires, and "invalid" (token) when a
 * careful worker finds {@code isValid()} false. Nothing else is reported as a loss: the judge
 * ({@link ProcessHistory}) holds the recipe to its own signals.
 *
 * <p>A {@link Style#FENCED} worker writes its whole batch without looking at its hold again, as
 * a process that relies on the store's fence does: paused past its session, it wakes and goes on
 * writing with its old token, and may give the lock back before its client has noticed anything.
 * A {@link Style#CAREFUL} worker checks {@code isValid()} before each write and stops writing when
 * it is false — which cannot help a process that was frozen (nothing in it ran to learn of the
 * loss), but must stop it within the bound once it runs.
 */
final class MutexWorker {
    /** How a worker treats its hold while it writes. */
    enum Style { FENCED, CAREFUL }

    /** Where a worker's reports and writes go: its parent over the line protocol, or the test directly. */
    interface Sink {
        /** {@code value}: the token. */
        void report(String kind, long value, String... more);

        /** Writes to the fenced store with {@code token}; whether the store accepted it. */
        boolean write(long token) throws InterruptedException;
    }

    /** How a worker waits between writes (the test's threads stop early; a child JVM just sleeps). */
    interface Pace {
        void pace(Duration d) throws InterruptedException;
    }

    private final BatonClient client;
    private final LockChaosTest.Acquirer acquirer;
    private final Style style;
    private final int writes;
    private final Duration between;
    private final Sink sink;
    private final Pace pace;
    private final Duration wait;

    /**
     * A worker on Baton's {@link InterProcessMutex} at {@code path}, whose acquisitions wait up to
     * {@code wait} (then it gives its place in line up and joins again at the back).
     */
    MutexWorker(BatonClient client, String path, Style style, int writes, Duration between, Sink sink, Pace pace,
                Duration wait) {
        this(client, new InterProcessMutex(client, path)::acquireLease, style, writes, between, sink, pace, wait);
    }

    /** A worker on any mutex: a canary passes a broken one. */
    MutexWorker(BatonClient client, LockChaosTest.Acquirer acquirer, Style style, int writes, Duration between, Sink sink,
                Pace pace, Duration wait) {
        this.client = client;
        this.acquirer = acquirer;
        this.style = style;
        this.writes = writes;
        this.between = between;
        this.sink = sink;
        this.pace = pace;
        this.wait = wait;
    }

    /** One hold: acquire, write the batch, release. Whether it acquired. */
    boolean step() throws InterruptedException {
        Grant grant = acquirer.acquire(wait);
        if (grant == null) {
            return false;
        }
        long token = grant.fencingToken();
        sink.report(ProcessHistory.ACQUIRED, token, grant.nodePaths().get(0), Long.toString(client.sessionId()));
        grant.onLost(() -> sink.report(ProcessHistory.LOST, token));
        for (int i = 0; i < writes; i++) {
            if (style == Style.CAREFUL && !grant.isValid()) {
                sink.report(ProcessHistory.INVALID, token);
                break;
            }
            sink.write(token);
            pace.pace(between);
        }
        sink.report(ProcessHistory.RELEASED, token);
        try {
            grant.release();
        } catch (OwnershipLostException lostBefore) {
            sink.report(ProcessHistory.RELEASE_FOUND_LOST, token);
        }
        return true;
    }
}
