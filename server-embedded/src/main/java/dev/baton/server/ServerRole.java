package dev.baton.server;

/** What one server of an {@link EmbeddedEnsemble} is doing right now. */
public enum ServerRole {
    /** The only server of a one-node ensemble, serving clients. */
    STANDALONE,
    /** Elected leader of the quorum, serving clients. */
    LEADER,
    /** Following the leader and serving clients. */
    FOLLOWER,
    /** Running but not serving: electing a leader, syncing with it, or without a quorum. */
    LOOKING,
    /** A child-process server frozen with SIGSTOP (see {@code EmbeddedEnsemble.pause}): alive but silent. */
    PAUSED,
    /** Not running (never started, stopped, or killed). */
    STOPPED;

    /** {@return whether a client connected to this server can read and write} */
    public boolean isServing() {
        return switch (this) {
            case STANDALONE, LEADER, FOLLOWER -> true;
            case LOOKING, PAUSED, STOPPED -> false;
        };
    }
}
