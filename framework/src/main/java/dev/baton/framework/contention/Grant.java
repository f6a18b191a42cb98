package dev.baton.framework.contention;

import dev.baton.framework.TransactionBuilder;
import dev.baton.framework.Failures;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * The handle a recipe gives its user for one {@link Hold}: a lock's lease, a semaphore's lease.
 * Any thread may release it, once; it knows its fencing token, says whether it is still valid,
 * calls back when lost, can guard a transaction, and says loudly — with an
 * {@link OwnershipLostException} from the release — when the hold was lost before the release.
 *
 * <p>Recipes subclass it to give the handle its own name (and, through
 * {@link #newLostException}, their own exception type).
 */
public abstract class Grant implements AutoCloseable {
    private enum State { HELD, RELEASED }

    private final Hold hold;
    private final String what;
    private final Consumer<Grant> onRelease;
    private State state = State.HELD;

    /**
     * @param hold what the handle gives access to
     * @param what the handle, for messages ("lease of InterProcessMutex /locks/a")
     * @param onRelease told once, when the handle is released (a recipe forgets it there)
     */
    protected Grant(Hold hold, String what, Consumer<Grant> onRelease) {
        this.hold = Objects.requireNonNull(hold, "hold");
        this.what = Objects.requireNonNull(what, "what");
        this.onRelease = Objects.requireNonNull(onRelease, "onRelease");
    }

    /** {@return the hold this handle rests on} */
    protected final Hold hold() {
        return hold;
    }

    /**
     * {@return the exception a release of a lost grant throws; recipes override it to name their kind of
     * grant}
     *
     * @param message what was lost, and why
     */
    protected OwnershipLostException newLostException(String message) {
        return new OwnershipLostException(message);
    }

    /**
     * {@return the fencing token: the creation zxid of the node this grant rests on, larger than that of
     * every earlier holder of the same lock} Pass it with every write to a resource the lock
     * protects; the resource remembers the largest token it saw and rejects smaller ones.
     */
    public long fencingToken() {
        return hold.fencingToken();
    }

    /**
     * {@return whether the grant can still be trusted right now: not released, its session alive, its
     * node in place, and the connection state not a loss under the client's error policy}
     */
    public boolean isValid() {
        return state() == State.HELD && hold.isValid();
    }

    /** {@return why the grant was lost, if it was} */
    public Optional<String> lossReason() {
        return hold.lossReason();
    }

    /**
     * Runs {@code callback} once when the grant is lost (at once if it already is), on the
     * client's event executor: keep it short and do not block in it. Not run after a release.
     *
     * @param callback what to run
     */
    public void onLost(Runnable callback) {
        hold.onLost(Objects.requireNonNull(callback, "callback"));
    }

    /**
     * Adds to {@code transaction} a check that the grant's node still exists, so the transaction
     * commits only while the grant holds — the server decides, not a local flag. The transaction
     * must come from the client (and namespace) the lock was made with.
     *
     * @param transaction a transaction of the lock's client
     * @return {@code transaction}, for chaining
     * @throws IllegalStateException if the grant was released
     */
    public TransactionBuilder guard(TransactionBuilder transaction) {
        Objects.requireNonNull(transaction, "transaction");
        if (state() == State.RELEASED) {
            throw new IllegalStateException(what + " was released; a guard for it would always fail");
        }
        return hold.guard(transaction);
    }

    /** {@return paths of the node(s) the grant rests on} */
    public List<String> nodePaths() {
        return hold.nodes();
    }

    /**
     * Gives the grant back: deletes its node (waiting for the delete while connected; in the
     * background otherwise). Any thread may call it.
     *
     * <p>The delete is made in the grant's own session, and its answer is the proof that the
     * grant lasted until the release. When it cannot be had — the session ended before the
     * servers answered, the node was already gone, or (under the STANDARD policy) the connection
     * dropped before the answer — the release throws, even if the client had not yet noticed
     * anything when the release began: a holder frozen past its session that wakes and releases
     * at once learns of it here.
     *
     * @throws OwnershipLostException if the grant was lost before this release, or the release
     *     cannot show that it lasted (the release has still been done)
     * @throws IllegalMonitorStateException if it was already released
     */
    public void release() {
        String lost = markReleased();
        try {
            hold.deleteAndWait(what);
        } catch (OwnershipLostException unconfirmed) {
            if (lost == null) {
                lost = unconfirmed.getMessage();
            }
        }
        if (lost != null) {
            throw lostException(lost);
        }
    }

    /**
     * {@link #release()} without waiting: completes when the node is deleted, or exceptionally
     * with {@link OwnershipLostException} if the grant was lost before, or the release cannot
     * show that it lasted.
     *
     * @return completes when the node is deleted, or with the failure
     */
    public CompletableFuture<Void> releaseAsync() {
        Returned returned = giveBack();
        return returned.deleted.handle((v, e) -> {
            if (returned.lost != null) {
                throw lostException(returned.lost);
            }
            Throwable cause = e == null ? null : Failures.unwrap(e);
            if (cause instanceof OwnershipLostException unconfirmed) {
                throw lostException(unconfirmed.getMessage());
            }
            if (cause != null && !Failures.goesInBackground(cause)) {
                throw Failures.rethrow(cause);
            }
            return null;
        });
    }

    /**
     * Releases the grant unless it was already released (try-with-resources). Like
     * {@link #release()}, it throws {@link OwnershipLostException} if the grant was lost.
     */
    @Override
    public void close() {
        if (state() == State.RELEASED) {
            return;
        }
        try {
            release();
        } catch (OwnershipLostException lost) {
            throw lost;
        } catch (IllegalMonitorStateException releasedMeanwhile) {
            // another thread released it between the check and the release: closed is closed
        }
    }

    /**
     * Releases without a word about loss and without waiting (an abandoned acquisition, a
     * clean-up path); does nothing if already released.
     */
    public void releaseQuietly() {
        if (state() == State.RELEASED) {
            return;
        }
        try {
            giveBack();
        } catch (IllegalMonitorStateException releasedMeanwhile) {
            // someone else gave it back first
        }
    }

    /** A release under way: its delete, and the loss reason (null if it held). */
    private record Returned(CompletableFuture<Void> deleted, String lost) {
    }

    /** Marks the grant released and starts the delete. */
    private Returned giveBack() {
        String lost = markReleased();
        return new Returned(hold.delete(), lost);
    }

    /**
     * Marks the grant released (once) and forgets it; returns the loss reason, or null if it held.
     * Judged before the delete: once the monitor is closed it no longer hears of a loss.
     */
    private String markReleased() {
        synchronized (this) {
            if (state == State.RELEASED) {
                throw new IllegalMonitorStateException(what + " was already released");
            }
            state = State.RELEASED;
        }
        String lost = hold.isValid() ? null : hold.lossReason().orElse("lost");
        onRelease.accept(this);
        return lost;
    }

    private OwnershipLostException lostException(String reason) {
        return newLostException(what + " was lost before it was released (" + reason + "); "
            + "work done since then may have overlapped with another holder");
    }

    private synchronized State state() {
        return state;
    }

    @Override
    public String toString() {
        return what + (state() == State.HELD ? (hold.isValid() ? " (held)" : " (lost)") : " (released)");
    }
}
