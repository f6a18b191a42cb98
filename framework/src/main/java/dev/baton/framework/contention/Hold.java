package dev.baton.framework.contention;

import dev.baton.framework.Futures;
import dev.baton.framework.TransactionBuilder;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.slf4j.LoggerFactory;

/**
 * One grant of a lock, lease or other ticket-based recipe, as the recipe sees it: its node(s),
 * its token and a monitor that says when it may be lost. {@link Grant} (the handle users get) sits
 * on it; {@link Holding} is the hold of one ticket, and a recipe may combine several.
 */
public interface Hold {
    /** {@return the creation zxid of the grant's node (the largest one, for a grant of several nodes)} */
    long fencingToken();

    /** {@return paths of the grant's nodes (relative to the client's namespace)} */
    List<String> nodes();

    /** {@return whether the grant can still be trusted right now} */
    boolean isValid();

    /** {@return why the grant was lost, if it was} */
    Optional<String> lossReason();

    /**
     * Runs {@code callback} once, on the client's event executor, when the grant is lost.
     *
     * @param callback what to run
     */
    void onLost(Runnable callback);

    /**
     * Adds to {@code transaction} a check that fails it unless every node of the grant still exists.
     *
     * @param transaction a transaction of the grant's client
     * @return {@code transaction}, for chaining
     */
    TransactionBuilder guard(TransactionBuilder transaction);

    /**
     * {@return whether every client the grant's nodes live on is connected to a writable server (so
     * a delete can be waited for)}
     */
    boolean connected();

    /**
     * Stops monitoring and deletes the nodes (guaranteed: in the background if the connection is
     * down). The future fails with {@link OwnershipLostException} when the delete shows that the
     * grant did not last until it: the session that owned a node ended before the servers
     * answered, or a node was already gone.
     *
     * @return completes when the nodes are deleted
     */
    CompletableFuture<Void> delete();

    /**
     * {@link #delete()}, waiting for it while the client is connected (uninterruptibly; an
     * interrupt is kept). Failures that only mean "the node goes later, or went with its
     * session" are not thrown: the guaranteed delete finishes in the background.
     *
     * @param what the grant, for the log
     * @throws OwnershipLostException as {@link #delete()}'s future fails with it
     */
    default void deleteAndWait(String what) {
        boolean wait = connected();
        CompletableFuture<Void> deleted = delete();
        if (wait) {
            Futures.awaitDelete(deleted, what);
        }
    }

    /**
     * Gives back {@code hold}, which nobody is handed: lost on its way to the caller (the line
     * reached it as the connection dropped or the session ended; said at INFO, naming
     * {@code what}), or arrived after the caller stopped waiting. A caller told it holds a grant
     * already lost could act while another process holds it, so a recipe never hands such a hold
     * out: it gives it back with this and goes on. Its nodes are deleted as {@link #delete()} does
     * (in the background if the connection is down); the delete's verdict is of no interest.
     *
     * @param hold the hold nobody gets
     * @param what the recipe, for the log
     */
    static void giveBackUnhanded(Hold hold, Object what) {
        if (!hold.isValid()) {
            LoggerFactory.getLogger(Hold.class).info("{}: a hold lost before it was handed out ({}) is given back;"
                + " the acquisition goes on", what, hold.lossReason().orElse("lost"));
        }
        hold.delete().exceptionally(e -> null);
    }
}
