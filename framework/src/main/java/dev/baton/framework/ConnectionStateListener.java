package dev.baton.framework;

/**
 * Told of every change of the client's connection state, in order, none dropped, on the client's
 * event executor (never on ZooKeeper's event thread). A listener that throws is logged and keeps
 * receiving later changes.
 */
@FunctionalInterface
public interface ConnectionStateListener {
    void stateChanged(BatonClient client, ConnectionState newState);

    /**
     * The same change with the session it belongs to; by default forwards to
     * {@link #stateChanged(BatonClient, ConnectionState)}. Recipes override this one.
     */
    default void stateChanged(BatonClient client, ConnectionStateChange change) {
        stateChanged(client, change.state());
    }
}
