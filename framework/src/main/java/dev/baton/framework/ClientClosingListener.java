package dev.baton.framework;

/**
 * A connection-state listener that is also told, once, when its client is closing: for recipes,
 * which must end what they hold while the session still holds it. Add it with {@link
 * BatonClient#addConnectionStateListener}; the client recognises it by its type.
 *
 * <p>Other listeners hear nothing of a {@code close()}: it is the caller's own act. But a recipe
 * that leads or holds something through the client's session must end that before the session
 * does (tell its listeners, stop its work), or another process takes over while this one still
 * acts. {@link #clientClosing()} runs on the thread that called {@link BatonClient#close()},
 * after the client has turned closed (new operations fail with {@link ClientClosedException})
 * and before the session ends, so the recipe's nodes are still there; the client's executors
 * still run. {@code close()} waits for it to return. Closing listeners run in the order they
 * were added; one that throws is logged and the next still runs.
 *
 * <pre>{@code
 * client.addConnectionStateListener((ClientClosingListener) this::close); // a recipe ends with its client
 * }</pre>
 */
@FunctionalInterface
public interface ClientClosingListener extends ConnectionStateListener {
    /**
     * The client is closing: end what rests on its session now; nothing it holds lasts past
     * this. Called once, on the closing thread, before the session ends.
     */
    void clientClosing();

    /**
     * Ignores connection state changes unless overridden: a listener that only ends things at close
     * can be a lambda.
     *
     * @param client the client whose state changed
     * @param newState the state it is in now
     */
    @Override
    default void stateChanged(BatonClient client, ConnectionState newState) {
        // only the close counts unless overridden
    }
}
