package dev.baton.chaos;

import dev.baton.framework.contention.Grant;
import dev.baton.test.history.History;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Each worker's current hold, recorded in a history exactly once as ended: by its release, by its
 * loss signal, or by the nemesis expiring its session (the servers ended it at that moment,
 * whether or not the worker has heard yet).
 */
final class Holds {
    private final History history;
    private final String key;
    private final AtomicReferenceArray<Grant> current;

    Holds(History history, String key, int workers) {
        this.history = history;
        this.key = key;
        this.current = new AtomicReferenceArray<>(workers);
    }

    /** Records the acquisition and watches the grant for loss. */
    void acquired(int worker, Grant grant) {
        current.set(worker, grant);
        history.acquired(actor(worker), key, grant.fencingToken());
        grant.onLost(() -> ended(worker, grant, true));
    }

    /** Ends the hold in the history (before the release is sent) and releases it. */
    void release(int worker, Grant grant) {
        if (ended(worker, grant, false)) {
            try {
                grant.release();
            } catch (RuntimeException lostMeanwhile) {
                // the release found the hold already lost: the history says released, which was first
            }
        }
    }

    /** The servers ended this worker's session: its hold is gone now. */
    void sessionExpired(int worker) {
        Grant grant = current.get(worker);
        if (grant != null) {
            ended(worker, grant, true);
        }
    }

    private boolean ended(int worker, Grant grant, boolean lost) {
        if (!current.compareAndSet(worker, grant, null)) {
            return false;
        }
        if (lost) {
            history.lost(actor(worker), key);
        } else {
            history.released(actor(worker), key);
        }
        return true;
    }

    static String actor(int worker) {
        return "worker-" + worker;
    }
}
