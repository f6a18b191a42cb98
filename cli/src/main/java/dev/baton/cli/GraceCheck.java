package dev.baton.cli;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ConnectionState;
import dev.baton.framework.ConnectionStateChange;
import dev.baton.framework.ConnectionStateListener;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Holds {@code --kill-grace} to the session timeout the servers actually granted, which may be
 * less than the one asked for (the servers clamp it to their bounds): checked once connected and
 * again on every new session, since a session built after an expiry may be granted less than the
 * first (the servers' bounds changed, or another ensemble answers).
 *
 * <p>The granted timeout is read from the client ({@link BatonClient#negotiatedSessionTimeout()})
 * only while it is connected to the quorum on the session being checked, and the session is
 * counted as checked only then: a listener may run after the connection dropped again, and a
 * client that is not connected may answer with the timeout asked for. Such a session is checked
 * on its next connection instead.
 */
final class GraceCheck implements ConnectionStateListener {
    private final HoldOptions options;
    private final Duration asked;
    private final AtomicReference<CliExit> refusal = new AtomicReference<>();
    private final List<Runnable> onRefusal = new CopyOnWriteArrayList<>();
    private long checkedSession;
    private volatile Duration granted;

    private GraceCheck(HoldOptions options, Duration asked) {
        this.options = options;
        this.asked = asked;
    }

    /**
     * Checks {@code client}'s current session and watches for new ones.
     *
     * @throws CliExit with the usage-error exit if the grace does not fit the granted timeout
     */
    static GraceCheck watch(BatonClient client, HoldOptions options, Duration asked) {
        GraceCheck check = new GraceCheck(options, asked);
        check.check(client);
        check.throwIfRefused();
        client.addConnectionStateListener(check);
        return check;
    }

    /** Runs {@code action} when a session the grace does not fit comes (at once if one came). */
    void onRefusal(Runnable action) {
        onRefusal.add(action);
        if (refusal.get() != null) {
            action.run();
        }
    }

    /** Throws the refusal if a session the grace does not fit came. */
    void throwIfRefused() {
        CliExit exit = refusal.get();
        if (exit != null) {
            throw exit;
        }
    }

    boolean refused() {
        return refusal.get() != null;
    }

    /** The timeout the servers granted the latest session checked; empty before the first check. */
    Optional<Duration> granted() {
        return Optional.ofNullable(granted);
    }

    @Override
    public void stateChanged(BatonClient client, ConnectionState newState) {
        // the change with its session is what counts: see below
    }

    @Override
    public void stateChanged(BatonClient client, ConnectionStateChange change) {
        if (change.state().isConnected()) {
            check(client);
        }
    }

    private synchronized void check(BatonClient client) {
        long session = client.sessionId();
        if (session == checkedSession || !onQuorum(client)) {
            return;
        }
        Duration timeout = client.negotiatedSessionTimeout();
        if (client.sessionId() != session || !onQuorum(client)) {
            return; // it changed while we read: the next connection checks again
        }
        checkedSession = session;
        granted = timeout;
        String problem = options.problemWith(timeout, asked);
        if (problem != null && refusal.compareAndSet(null, new CliExit(ExitCodes.USAGE, problem))) {
            onRefusal.forEach(Runnable::run);
        }
    }

    /** Connected to a server of the quorum: the session's granted timeout is the client's to tell. */
    private static boolean onQuorum(BatonClient client) {
        return switch (client.connectionState()) {
            case CONNECTED, RECONNECTED -> true;
            case SUSPENDED, LOST, READ_ONLY -> false;
        };
    }
}
