package dev.baton.recipes.election;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ConnectionStateListener;
import java.util.Objects;
import java.util.function.BooleanSupplier;

/**
 * Lets a recipe's own thread, after a failed attempt, wait for the connection change that may
 * cure it: being connected to a writable server (when the failure was connection trouble), or else the next change of
 * any kind. It waits on the owner's monitor, so the owner's own {@code notifyAll} (when it
 * closes) wakes it as well.
 */
final class ConnectionWait {
    private final BatonClient client;
    private final Object owner;
    private final ConnectionStateListener listener = ConnectionChanges.onChange(change -> changed());

    // guarded by owner
    private long changes;

    public ConnectionWait(BatonClient client, Object owner) {
        this.client = Objects.requireNonNull(client, "client");
        this.owner = Objects.requireNonNull(owner, "owner");
    }

    /** Starts counting the client's connection changes. */
    public void start() {
        client.addConnectionStateListener(listener);
    }

    public void stop() {
        client.removeConnectionStateListener(listener);
    }

    /**
     * Waits until the next connection change, or, if {@code connectionTrouble}, until the client is
     * connected, or until {@code done} holds (checked on every wake-up). Returns at once when
     * interrupted, leaving the interrupt status cleared. Caller holds the owner's lock.
     */
    public void awaitNext(boolean connectionTrouble, BooleanSupplier done) {
        long seen = changes;
        while (!done.getAsBoolean() && changes == seen && !(connectionTrouble && client.connectionState().isWritable())) {
            try {
                owner.wait();
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private void changed() {
        synchronized (owner) {
            changes++;
            owner.notifyAll();
        }
    }
}
