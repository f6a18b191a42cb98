package dev.baton.framework.cache;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ChangeSignal;
import dev.baton.framework.Deadline;
import dev.baton.framework.cache.SnapshotCache.Listener;
import dev.baton.framework.cache.SnapshotCache.Snapshot;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells a {@link SnapshotCache}'s listeners of its snapshots on the client's event executor, in
 * publication order, coalescing those made while an announcement waits there (see the cache's
 * class comment); and keeps the latest snapshot told, for {@link SnapshotCache#current()}.
 */
final class Announcer {
    private static final Logger LOG = LoggerFactory.getLogger(SnapshotCache.class);

    /**
     * Snapshots on their way to the listeners: {@code previous} is the snapshot they were last
     * told (or are being told), {@code current} the latest made, {@code changed} every path a
     * publication since {@code previous} found changed. Changed under {@link #pendingLock} while
     * queued; the announcement's own once it has taken it out of {@link #pending}.
     */
    private static final class Announcement {
        private final Snapshot previous;
        private final Set<String> changed;
        private Snapshot current;
        private boolean joined;

        Announcement(Snapshot previous, Snapshot current, Set<String> changed) {
            this.previous = previous;
            this.current = current;
            this.changed = changed;
        }

        /** A newer publication, made before this announcement started: it replaces the snapshot it tells. */
        void join(Snapshot newer, Set<String> alsoChanged) {
            current = newer;
            changed.addAll(alsoChanged);
            joined = true;
        }

        /** The paths that differ between {@code previous} and {@code current}. */
        Set<String> told() {
            if (previous == null) {
                return current.nodes().keySet();
            }
            if (joined) {
                // a node changed and put back (created and deleted) between the joined snapshots did not change
                changed.removeIf(path -> SnapshotCache.same(previous.nodes().get(path), current.nodes().get(path)));
            }
            return changed;
        }
    }

    private final String root;
    private final Executor executor;
    private final List<Listener> listeners = new CopyOnWriteArrayList<>();
    /** Set once the first snapshot was told, read by the initialization wait. */
    private volatile boolean initialized;
    /** Wakes {@link #awaitFirst}: bumped at the first snapshot (the client's close wakes it too). */
    private final ChangeSignal firstOrClosed = new ChangeSignal();
    /**
     * Guards {@link #pending} only, and is held for nothing else: a publication takes it on
     * ZooKeeper's event thread (inside the cache's lock), the announcement on the event executor,
     * which must not wait for the cache's lock.
     */
    private final Object pendingLock = new Object();
    /** The announcement queued on the event executor and not started yet, or null: later publications join it. */
    private Announcement pending;
    private volatile Snapshot told;

    Announcer(String root, Executor executor) {
        this.root = root;
        this.executor = executor;
    }

    void add(Listener listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    void remove(Listener listener) {
        listeners.remove(listener);
    }

    /** The latest snapshot told (or being told), or null before the first. */
    Snapshot told() {
        return told;
    }

    /** Waits for the first snapshot told, ending with ClientClosedException once {@code client} closes. */
    boolean awaitFirst(BatonClient client, Duration timeout) throws InterruptedException {
        return firstOrClosed.awaitUnlessClosed(client, () -> initialized,
            Deadline.afterNonNegative(timeout, client.ticker()), "wait for the first snapshot of the cache", root);
    }

    /**
     * Hands {@code next} to the listeners on the event executor (never user code on ZooKeeper's
     * event thread): it joins the announcement still queued there if there is one, else queues
     * one. So however long a listener blocks, at most one announcement of the cache waits.
     */
    void later(Snapshot previous, Snapshot next, Set<String> changed) {
        synchronized (pendingLock) {
            if (pending != null) {
                pending.join(next, changed);
                return;
            }
            pending = new Announcement(previous, next, changed);
        }
        try {
            executor.execute(this::announcePending); // the executor keeps the order
        } catch (RejectedExecutionException e) {
            synchronized (pendingLock) {
                pending = null; // the executor is shutting down: nothing would ever run it
            }
            throw e;
        }
    }

    /** Runs the queued announcement: from now on a publication queues a new one, which runs after this. */
    private void announcePending() {
        Announcement next;
        synchronized (pendingLock) {
            next = pending;
            pending = null;
        }
        now(next.previous, next.current, next.told());
    }

    /** Tells the listeners of {@code current} on this thread (which must be the event executor). */
    void now(Snapshot previous, Snapshot current, Set<String> changed) {
        told = current;
        initialized = true;
        firstOrClosed.bump();
        Set<String> paths = Set.copyOf(changed);
        for (Listener listener : listeners) {
            try {
                listener.published(previous, current, paths);
            } catch (RuntimeException e) {
                LOG.error("snapshot cache of {}: a listener threw; later snapshots still reach it", root, e);
            }
        }
    }
}
