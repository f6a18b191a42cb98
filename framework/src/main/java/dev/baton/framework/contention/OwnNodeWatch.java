package dev.baton.framework.contention;

import dev.baton.framework.BatonClient;
import dev.baton.framework.internal.WakeUps;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A contender's watch on its own node: it says once that the node is gone — deleted (by an
 * operator, by our own release, with its folder) or ended with its session. The engine sets it
 * before it first waits, listens while it waits, and hands it to the hold's {@link Holding} when
 * the ticket holds, so such a hold is watched from its first moment without a request of its own.
 *
 * <p>It runs on ZooKeeper's event thread (a {@link WakeUps.DirectWatcher}) and only records the
 * end and hands it to the current listener's executor; with no listener (a hold that ended: our
 * own delete) it does nothing at all.
 */
final class OwnNodeWatch implements WakeUps.DirectWatcher {
    private static final Logger LOG = LoggerFactory.getLogger(OwnNodeWatch.class);
    /** The end reported when the node was deleted (or found missing). */
    static final String DELETED = "was deleted";
    /** The end reported when the session that owned the node expired. */
    static final String EXPIRED = "went with its expired session";

    private final BatonClient ops;
    private final String path;
    private Consumer<String> listener;
    private Executor executor;
    private String gone;
    private boolean armed;

    /** @param ops the client view to watch through (replies may complete on ZooKeeper's thread) */
    OwnNodeWatch(BatonClient ops, String path) {
        this.ops = ops;
        this.path = path;
    }

    /** Sets the watch. A node already gone is reported as deleted. */
    void arm() {
        synchronized (this) {
            armed = true;
        }
        ops.checkExists().usingWatcher(this).forPathAsync(path).whenComplete((stat, e) -> {
            if (e == null && stat == null) {
                end(DELETED);
            } else if (e != null) {
                LOG.debug("could not watch {}: {}", path, e.toString());
            }
        });
    }

    synchronized boolean armed() {
        return armed;
    }

    /** Sets the watch if it is not set yet and someone still listens (a hold that lasted). */
    void armIfWanted() {
        synchronized (this) {
            if (armed || listener == null || gone != null) {
                return;
            }
        }
        arm();
    }

    /**
     * From now on the end goes to {@code newListener}, on {@code newExecutor} (at once if the node
     * is already gone). A null listener hears nothing.
     */
    void listen(Consumer<String> newListener, Executor newExecutor) {
        String already;
        synchronized (this) {
            listener = newListener;
            executor = newExecutor;
            already = gone;
        }
        if (already != null && newListener != null) {
            newExecutor.execute(() -> newListener.accept(already));
        }
    }

    @Override
    public void process(WatchedEvent event) {
        switch (event.getType()) {
            case NodeDeleted -> end(DELETED);
            case NodeDataChanged, NodeCreated -> rearm();
            case None -> {
                if (event.getState() == Watcher.Event.KeeperState.Expired) {
                    end(EXPIRED);
                }
            }
            default -> {
                // child events are not set by an exists watch
            }
        }
    }

    /** Someone wrote to the node: the watch is used up, so set it again (off ZooKeeper's thread). */
    private void rearm() {
        synchronized (this) {
            if (gone != null) {
                return;
            }
        }
        ops.asyncExecutor().execute(this::arm);
    }

    private void end(String reason) {
        Consumer<String> to;
        Executor on;
        synchronized (this) {
            if (gone != null) {
                return;
            }
            gone = reason;
            to = listener;
            on = executor;
        }
        if (to != null) {
            on.execute(() -> to.accept(reason));
        }
    }
}
