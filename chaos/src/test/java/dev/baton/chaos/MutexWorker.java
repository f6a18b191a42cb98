package dev.baton.chaos;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ConnectionState;
import dev.baton.framework.ConnectionStateChange;
import dev.baton.framework.ConnectionStateListener;
import dev.baton.framework.contention.OwnershipLostException;
import dev.baton.recipes.lock.InterProcessMutex;
import dev.baton.recipes.lock.LockLease;
import java.time.Duration;

/**
 * One worker of the process chaos test, the same whether it runs in a child JVM
 * ({@link MutexWorkerMain}) or on a thread of the test: it takes the mutex, writes to the fenced
 * store a number of times with its token, and gives the mutex back, telling its {@link Sink}
 * what it did: "acquired" (token, node, session), "lost" (token: the loss signal), "released"
 * (token), "release-found-lost" (token), and "session-lost" (session id) whenever its client
 * reports a session gone.
 *
 * <p>A {@link Style#FENCED} worker writes its whole batch without looking at its hold again, as
 * a process that relies on the store's fence does: paused past its session, it wakes and goes on
 * writing with its old token — and may even give the lock back before its client has noticed
 * anything, so that neither the loss signal nor the release tells it; only its client's later
 * "session lost" does. A {@link Style#CAREFUL} worker checks {@code isValid()} before each write,
 * which cannot help a process that was frozen: nothing in it ran to learn of the loss.
 */
final class MutexWorker {
    static final String SESSION_LOST = "session-lost";

    /** How a worker treats its hold while it writes. */
    enum Style { FENCED, CAREFUL }

    /** Where a worker's reports and writes go: its parent over the line protocol, or the test directly. */
    interface Sink {
        /** {@code value}: the token, or for "session-lost" the session id. */
        void report(String kind, long value, String... more);

        /** Writes to the fenced store with {@code token}; whether the store accepted it. */
        boolean write(long token) throws InterruptedException;
    }

    /** How a worker waits between writes (the test's threads stop early; a child JVM just sleeps). */
    interface Pace {
        void pace(Duration d) throws InterruptedException;
    }

    private final BatonClient client;
    private final InterProcessMutex mutex;
    private final Style style;
    private final int writes;
    private final Duration between;
    private final Sink sink;
    private final Pace pace;

    MutexWorker(BatonClient client, String path, Style style, int writes, Duration between, Sink sink, Pace pace) {
        this.client = client;
        this.mutex = new InterProcessMutex(client, path);
        this.style = style;
        this.writes = writes;
        this.between = between;
        this.sink = sink;
        this.pace = pace;
        client.addConnectionStateListener(new ConnectionStateListener() {
            @Override
            public void stateChanged(BatonClient c, ConnectionState state) {
                // the change below carries the session it is about
            }

            @Override
            public void stateChanged(BatonClient c, ConnectionStateChange change) {
                if (change.state() == ConnectionState.LOST) {
                    sink.report(SESSION_LOST, change.sessionId());
                }
            }
        });
    }

    /** One hold: acquire, write the batch, release. Whether it acquired. */
    boolean step() throws InterruptedException {
        LockLease lease = mutex.acquireLease(Duration.ofSeconds(2));
        if (lease == null) {
            return false;
        }
        long token = lease.fencingToken();
        sink.report("acquired", token, lease.nodePaths().get(0), Long.toString(client.sessionId()));
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
