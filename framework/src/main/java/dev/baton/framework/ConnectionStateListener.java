package dev.baton.framework;

/**
 * Told of every change of the client's connection state, in order, none dropped, on the client's
 * event executor (never on ZooKeeper's event thread). A listener that throws is logged and keeps
 * receiving later changes.
 */
@FunctionalInterface
public interface ConnectionStateListener {
    /**
     * Called on the client's event executor, in order, when the connection state changes.
     *
     * @param client the client whose state changed
     * @param newState the state it is in now
     */
    void stateChanged(BatonClient client, ConnectionState newState);

    /**
     * The same change with the session it belongs to; by default forwards to
     * {@link #stateChanged(BatonClient, ConnectionState)}. Recipes override this one.
     *
     * @param client the client whose state changed
     * @param change the new state, with the session it belongs to
     */
    default void stateChanged(BatonClient client, ConnectionStateChange change) {
        stateChanged(client, change.state());
    }
}
