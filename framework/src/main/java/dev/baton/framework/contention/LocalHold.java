package dev.baton.framework.contention;

import dev.baton.framework.TransactionBuilder;
import dev.baton.framework.contention.Hold;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * One hold of a {@link SharedTicket} lock: a turn of one thread (or lease) on the process's node, or
 * in a shared line (a read side) one of the holds on it at once.
 * Its node, validity, guard and {@code long} token are the node's; its full token adds its
 * hand-off number; its release hands the lock to the next local waiter, or gives the node back
 * ({@link ProcessLine#release}).
 */
final class LocalHold implements Hold {
    private final ProcessLine line;
    private final ProcessLine.Tenure tenure;
    private final long handOff;
    /** Guarded by {@code line}: set once, by the release. */
    private boolean released;
    /** Guarded by {@code line}: this hold's loss callbacks, until it is released or lost. */
    private final List<Runnable> callbacks = new ArrayList<>();

    LocalHold(ProcessLine line, ProcessLine.Tenure tenure, long handOff) {
        this.line = line;
        this.tenure = tenure;
        this.handOff = handOff;
    }

    ProcessLine.Tenure tenure() {
        return tenure;
    }

    ProcessLine line() {
        return line;
    }

    /** Marks the hold released; {@return whether it was not already} Called with {@code line}'s monitor held. */
    boolean markReleased() {
        boolean first = !released;
        released = true;
        callbacks.clear();
        return first;
    }

    /** {@return the callbacks to run for a loss, emptied} Called with {@code line}'s monitor held. */
    List<Runnable> takeCallbacks() {
        List<Runnable> taken = List.copyOf(callbacks);
        callbacks.clear();
        return released ? List.of() : taken;
    }

    /** Adds a loss callback unless released; {@return false if the hold is already lost} Called with {@code line}'s monitor held. */
    boolean addCallback(Runnable callback) {
        if (released) {
            return true;
        }
        if (tenure.lost()) {
            return false;
        }
        callbacks.add(callback);
        return true;
    }

    /** {@return the full token: the node's zxid and this hold's number on it} */
    FencingToken token() {
        return new FencingToken(tenure.node().fencingToken(), handOff);
    }

    @Override
    public long fencingToken() {
        return tenure.node().fencingToken();
    }

    @Override
    public List<String> nodes() {
        return tenure.node().nodes();
    }

    @Override
    public boolean isValid() {
        return !tenure.lost() && tenure.node().isValid();
    }

    @Override
    public Optional<String> lossReason() {
        Optional<String> reason = tenure.node().lossReason();
        return reason.isPresent() || !tenure.lost() ? reason : Optional.of("the process's node was lost");
    }

    @Override
    public void onLost(Runnable callback) {
        line.onLost(this, callback);
    }

    /**
     * The node's guard: the transaction commits only while the process's node exists, that is, while
     * this process holds the lock. It cannot tell this hold from a later local hold on the same node.
     */
    @Override
    public TransactionBuilder guard(TransactionBuilder transaction) {
        return tenure.node().guard(transaction);
    }

    @Override
    public boolean connected() {
        return tenure.node().connected();
    }

    /** Hands the lock to the next local contender, or deletes the node when it is given back. */
    @Override
    public CompletableFuture<Void> delete() {
        Hold node = line.release(this);
        return node == null ? CompletableFuture.completedFuture(null) : node.delete();
    }

    /**
     * {@link #delete()}, waiting for the node's delete when it is given back (the node's own blocking
     * form). A local hand-off proves nothing at the servers: it is made only while the node is valid
     * in the client's view (see {@link SharedTicket}).
     */
    @Override
    public void deleteAndWait(String what) {
        Hold node = line.release(this);
        if (node != null) {
            node.deleteAndWait(what);
        }
    }

    @Override
    public String toString() {
        return "hold " + handOff + " on " + nodes();
    }
}
