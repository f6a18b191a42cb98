package dev.baton.chaos;

import dev.baton.framework.BatonClient;
import dev.baton.framework.contention.Grant;
import dev.baton.framework.contention.OwnershipLostException;
import dev.baton.test.history.Event;
import dev.baton.test.history.History;
import dev.baton.test.history.Zxids;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.IntFunction;

/**
 * Each worker's current hold, recorded in a history as the holder believes it: acquired (with the
 * zxid its client had seen, its nodes and its token), then ended exactly once — released by the
 * worker, or lost when the grant's own loss signal fires. Nothing here records a loss on the
 * holder's behalf: how late the holder heard is what the checker judges against the servers'
 * truth.
 */
final class Holds {
    private final History history;
    private final String key;
    private final AtomicReferenceArray<Grant> current;
    private final IntFunction<String> names;

    Holds(History history, String key, int workers) {
        this(history, key, workers, Holds::actor);
    }

    /** Holds whose workers are named by {@code names} in the history (several threads of one client). */
    Holds(History history, String key, int workers, IntFunction<String> names) {
        this.history = history;
        this.key = key;
        this.current = new AtomicReferenceArray<>(workers);
        this.names = names;
    }

    /** Records the acquisition and watches the grant for loss; {@return the event recorded} */
    Event acquired(int worker, Grant grant, BatonClient client, boolean shared) {
        current.set(worker, grant);
        Event e = history.acquired(names.apply(worker), key, grant.fencingToken(), Zxids.lastSeen(client), grant.nodePaths(),
            shared);
        grant.onLost(() -> ended(worker, grant, true));
        return e;
    }

    /**
     * Ends the hold in the history (before the release is sent) and releases it. A hold the
     * history already counts as lost is still given back, quietly: its node must not hold up the
     * others.
     */
    void release(int worker, Grant grant) {
        if (ended(worker, grant, false)) {
            try {
                grant.release();
            } catch (OwnershipLostException lostMeanwhile) {
                // the loss came between the record and the release: the history says released, which was first
            }
        } else {
            grant.releaseQuietly();
        }
    }

    private boolean ended(int worker, Grant grant, boolean lost) {
        if (!current.compareAndSet(worker, grant, null)) {
            return false;
        }
        if (lost) {
            history.lost(names.apply(worker), key);
        } else {
            history.released(names.apply(worker), key);
        }
        return true;
    }

    static String actor(int worker) {
        return "worker-" + worker;
    }
}
