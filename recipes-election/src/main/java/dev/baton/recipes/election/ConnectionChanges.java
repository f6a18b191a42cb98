package dev.baton.recipes.election;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ConnectionState;
import dev.baton.framework.ConnectionStateChange;
import dev.baton.framework.ConnectionStateListener;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The connection listener the election recipes add: it hears the variant of each change that
 * carries its session (on the client's event executor) and hands it to an action.
 */
final class ConnectionChanges implements ConnectionStateListener {
    private final Consumer<ConnectionStateChange> action;

    private ConnectionChanges(Consumer<ConnectionStateChange> action) {
        this.action = Objects.requireNonNull(action, "action");
    }

    /** A listener that runs {@code action} on every change. */
    public static ConnectionStateListener onChange(Consumer<ConnectionStateChange> action) {
        return new ConnectionChanges(action);
    }

    /** A listener that runs {@code action} each time the client is connected (CONNECTED or RECONNECTED). */
    public static ConnectionStateListener onConnected(Runnable action) {
        Objects.requireNonNull(action, "action");
        return onChange(change -> {
            if (change.state() == ConnectionState.CONNECTED || change.state() == ConnectionState.RECONNECTED) {
                action.run();
            }
        });
    }

    @Override
    public void stateChanged(BatonClient client, ConnectionState newState) {
        // the variant with the session is the one used
    }

    @Override
    public void stateChanged(BatonClient client, ConnectionStateChange change) {
        action.accept(change);
    }
}
