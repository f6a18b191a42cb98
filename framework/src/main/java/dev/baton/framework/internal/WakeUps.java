package dev.baton.framework.internal;

import dev.baton.framework.BatonClient;
import java.util.function.LongSupplier;
import org.apache.zookeeper.Watcher;

/**
 * For framework code that waits on ZooKeeper and only needs to be woken: replies and watch events
 * delivered on ZooKeeper's event thread itself, without the hops through the client's async and
 * event executors. The contention engine uses it to wake the thread that runs its next step; the
 * snapshot cache keeps its books there (it records events and answers, sends reads, and hands each
 * snapshot it publishes to the event executor).
 *
 * <p>Never hand a future of a {@link #repliesInPlace} view, or a {@link DirectWatcher}, to user
 * code: whatever runs on ZooKeeper's event thread holds up every reply and event of the session.
 * What runs there must only record, send without waiting, or pass the reply or event on (to a
 * queue, a waiting thread, an executor): no user code, no blocking, no logging at warn level.
 */
public final class WakeUps {
    private WakeUps() {
    }

    /**
     * A watcher the client calls on ZooKeeper's event thread instead of its event executor. It
     * must only hand the event on.
     */
    public interface DirectWatcher extends Watcher {
    }

    /**
     * A view of {@code client} whose asynchronous operations complete their futures on ZooKeeper's
     * event thread (so a continuation must hand over at once, see the class comment). For a client
     * that is not Baton's own (a test's wrapper), {@code client} itself: its futures complete on
     * its async executor, which is slower but just as correct.
     */
    public static BatonClient repliesInPlace(BatonClient client) {
        return client instanceof NamespacedClient own ? own.repliesInPlace() : client;
    }

    /**
     * The count of {@code client}'s connection state changes, for code that handles replies and
     * events on ZooKeeper's event thread and must tell whether a reply came over the connection
     * its request went out on (see {@link Connection#transitions()}). Null for a client that is
     * not Baton's own: its replies are not handled on that thread, and the caller must take the
     * slower path of its event executor.
     */
    public static LongSupplier connectionTransitions(BatonClient client) {
        return client instanceof NamespacedClient own ? own::connectionTransitions : null;
    }
}
