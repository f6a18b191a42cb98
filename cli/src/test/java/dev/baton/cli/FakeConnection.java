package dev.baton.cli;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ConnectionState;
import dev.baton.framework.ConnectionStateChange;
import dev.baton.framework.ConnectionStateListener;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A client whose connection the test sets by hand — session, state, the timeout it reports — for
 * the orders of events a real server cannot be made to produce on cue (a new session whose
 * listener runs only after the connection dropped again). Only what the CLI's checks read is
 * there; anything else throws.
 */
final class FakeConnection {
    volatile long session;
    volatile ConnectionState state;
    /** What {@link BatonClient#negotiatedSessionTimeout()} answers right now. */
    volatile Duration timeout;
    private final List<ConnectionStateListener> listeners = new CopyOnWriteArrayList<>();
    private long sequence;

    FakeConnection(long session, ConnectionState state, Duration timeout) {
        this.session = session;
        this.state = state;
        this.timeout = timeout;
    }

    BatonClient client() {
        return (BatonClient) Proxy.newProxyInstance(BatonClient.class.getClassLoader(), new Class<?>[] {BatonClient.class},
            (proxy, method, args) -> switch (method.getName()) {
                case "sessionId" -> session;
                case "connectionState" -> state;
                case "negotiatedSessionTimeout" -> timeout;
                case "addConnectionStateListener" -> {
                    listeners.add((ConnectionStateListener) args[0]);
                    yield null;
                }
                case "toString" -> "FakeConnection[0x" + Long.toHexString(session) + ", " + state + "]";
                case "hashCode" -> System.identityHashCode(proxy);
                case "equals" -> proxy == args[0];
                default -> throw new UnsupportedOperationException(method.getName() + " is not faked");
            });
    }

    /** Tells the listeners of {@code change} of {@code client}, as the client's event thread would. */
    void tell(BatonClient client, ConnectionState changedTo, long changeSession) {
        ConnectionStateChange change = new ConnectionStateChange(changedTo, changeSession, ++sequence);
        listeners.forEach(l -> l.stateChanged(client, change));
    }
}
