package dev.baton.framework.internal;

import dev.baton.framework.ConnectionStateListener;

/**
 * A connection-state listener of the framework's own that is also told when its client closes.
 * Users' listeners hear nothing after {@code close()}; a hold, though, must end then, whether or
 * not its own-node watch was set yet (a hold granted at the first look is watched only after
 * {@code SpeedPaths.LateWatches.DELAY}, and only a set watch hears the node go as the session
 * closes). Called once, on the closing thread, before the session ends.
 */
public interface ClosingListener extends ConnectionStateListener {
    /** The client is closing: nothing it holds lasts past this. */
    void clientClosing();
}
