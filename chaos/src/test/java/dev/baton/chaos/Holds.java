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

    /**
     * Records the acquisition and watches the grant for loss. A grant recorded while the nemesis
     * is ending the worker's session ({@code beingExpired}, see {@link ChaosRun#beingExpired})
     * is recorded as lost at once.
     */
    void acquired(int worker, Grant grant, java.util.function.IntPredicate beingExpired) {
        // one step of the history (it records under its own lock): nobody's acquisition falls between the two records
        synchronized (history) {
            current.set(worker, grant);
            history.acquired(actor(worker), key, grant.fencingToken());
            if (beingExpired.test(worker)) {
                ended(worker, grant, true);
            }
        }
        grant.onLost(() -> ended(worker, grant, true));
    }

    /**
     * Ends the hold in the history (before the release is sent) and releases it. A hold the
     * history already counts as lost is still given back, quietly: a grant recorded in a kill
     * window may be on a session that lives on, and its node must not hold up the others.
     */
    void release(int worker, Grant grant) {
        if (ended(worker, grant, false)) {
            try {
                grant.release();
            } catch (RuntimeException lostMeanwhile) {
                // the release found the hold already lost: the history says released, which was first
            }
        } else {
            grant.releaseQuietly();
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
