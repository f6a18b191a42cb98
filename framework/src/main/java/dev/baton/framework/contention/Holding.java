package dev.baton.framework.contention;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ConnectionState;
import dev.baton.framework.ConnectionStateChange;
import dev.baton.framework.ConnectionStateListener;
import dev.baton.framework.ErrorPolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches a held ticket and says, loudly, when what it grants may be gone.
 *
 * <p>A hold is lost when: the connection state means loss under the {@link ErrorPolicy}
 * (SUSPENDED under STANDARD, LOST always); the client is on a different session than the one
 * that owns the ticket; the ticket's node is deleted by someone else; or, with a lease margin,
 * when the client has been disconnected so long that the servers might expire the session: the
 * last certain server contact plus the negotiated session timeout, minus the margin, on the
 * monotonic clock. Loss is final; {@code onLost} callbacks run once, on the client's event
 * executor, never on ZooKeeper's thread.
 *
 * <p>The node is watched from 50 ms ({@code NODE_WATCH_DELAY}) into the hold on: a deletion by
 * someone else during the first 50 ms is noticed then. Holds shorter than that — most lock holds —
 * are spared the request, the server-side watch and the event of their own delete.
 */
public final class Holding implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Holding.class);
    /** How long after the start of a hold its node starts being watched for deletion by someone else. */
    static final Duration NODE_WATCH_DELAY = Duration.ofMillis(50);

    private final BatonClient client;
    private final Ticket ticket;
    private final ErrorPolicy policy;
    private final Duration leaseMargin;
    private final List<Runnable> callbacks = new ArrayList<>();
    private final ConnectionStateListener listener;
    private String lostReason;
    private boolean closed;
    private int leaseTimer;

    private Holding(BatonClient client, Ticket ticket, ErrorPolicy policy, Duration leaseMargin) {
        this.client = client;
        this.ticket = ticket;
        this.policy = policy;
        this.leaseMargin = leaseMargin;
        this.listener = new ConnectionStateListener() {
            @Override
            public void stateChanged(BatonClient c, ConnectionState newState) {
                // the variant with the session is the one that counts
            }

            @Override
            public void stateChanged(BatonClient c, ConnectionStateChange change) {
                onState(change);
            }
        };
    }

    /** Starts watching {@code ticket} under {@code policy}. */
    public static Holding monitor(BatonClient client, Ticket ticket, ErrorPolicy policy) {
        return start(new Holding(client, ticket, Objects.requireNonNull(policy, "policy"), null));
    }

    /**
     * Starts watching {@code ticket} under {@link ErrorPolicy#SESSION_ONLY}, plus a lease: while
     * disconnected, the hold stays valid until {@code margin} before the earliest moment the
     * servers could expire the session.
     */
    public static Holding monitorWithLease(BatonClient client, Ticket ticket, Duration margin) {
        Objects.requireNonNull(margin, "margin");
        if (margin.isNegative()) {
            throw new IllegalArgumentException("lease margin must not be negative, was " + margin);
        }
        return start(new Holding(client, ticket, ErrorPolicy.SESSION_ONLY, margin));
    }

    private static Holding start(Holding holding) {
        holding.client.addConnectionStateListener(holding.listener);
        // Most holds are short (a lock around one write). Watching the node costs a request, a
        // watch on the server and an event at our own delete; a hold that ends within the delay
        // never pays for it. A node deleted by someone else meanwhile is still found: exists()
        // then says it is gone.
        CompletableFuture.delayedExecutor(NODE_WATCH_DELAY.toNanos(), TimeUnit.NANOSECONDS, holding.client.asyncExecutor()).execute(() -> {
            synchronized (holding) {
                if (holding.closed || holding.lostReason != null) {
                    return;
                }
            }
            holding.watchNode();
        });
        // a change that happened before the listener was added would not be heard: check now
        if (holding.client.sessionId() != holding.ticket.sessionId()) {
            holding.lose("the session that owns " + holding.ticket.name() + " is gone");
        } else if (holding.client.connectionState() == ConnectionState.SUSPENDED) {
            holding.onState(new ConnectionStateChange(ConnectionState.SUSPENDED, holding.ticket.sessionId(), 0));
        }
        return holding;
    }

    public Ticket ticket() {
        return ticket;
    }

    /** Whether the hold can still be trusted right now. */
    public boolean isValid() {
        synchronized (this) {
            if (lostReason != null) {
                return false;
            }
        }
        if (client.sessionId() != ticket.sessionId()) {
            return false;
        }
        ConnectionState state = client.connectionState();
        if (policy.isLoss(state)) {
            return false;
        }
        return leaseMargin == null || !state.equals(ConnectionState.SUSPENDED) || System.nanoTime() - leaseDeadline() < 0;
    }

    /** Why the hold was lost, if it was. */
    public synchronized Optional<String> lossReason() {
        return Optional.ofNullable(lostReason);
    }

    /** Runs {@code callback} once when the hold is lost (soon, if it already is). */
    public void onLost(Runnable callback) {
        Objects.requireNonNull(callback, "callback");
        boolean now;
        synchronized (this) {
            now = lostReason != null;
            if (!now) {
                callbacks.add(callback);
            }
        }
        if (now) {
            client.eventExecutor().execute(callback);
        }
    }

    /** Stops watching (the hold ended normally). No callback runs after this. */
    @Override
    public void close() {
        synchronized (this) {
            closed = true;
            callbacks.clear();
            leaseTimer++;
        }
        client.removeConnectionStateListener(listener);
    }

    private void onState(ConnectionStateChange change) {
        switch (change.state()) {
            case LOST -> {
                if (change.sessionId() == ticket.sessionId() || change.sessionId() == 0) {
                    lose("session 0x" + Long.toHexString(ticket.sessionId()) + " lost");
                }
            }
            case SUSPENDED -> {
                if (policy.isLoss(ConnectionState.SUSPENDED)) {
                    lose("connection suspended");
                } else if (leaseMargin != null) {
                    startLeaseTimer();
                }
            }
            case CONNECTED, RECONNECTED, READ_ONLY -> {
                synchronized (this) {
                    leaseTimer++;
                }
                if (change.sessionId() != ticket.sessionId()) {
                    lose("reconnected with another session (0x" + Long.toHexString(change.sessionId()) + ")");
                }
            }
        }
    }

    private long leaseDeadline() {
        return client.lastServerContactNanos() + client.negotiatedSessionTimeout().toNanos() - leaseMargin.toNanos();
    }

    private void startLeaseTimer() {
        int timer;
        synchronized (this) {
            timer = ++leaseTimer;
        }
        long delay = Math.max(0, leaseDeadline() - System.nanoTime());
        CompletableFuture.delayedExecutor(delay, TimeUnit.NANOSECONDS, client.asyncExecutor()).execute(() -> {
            synchronized (this) {
                if (timer != leaseTimer) {
                    return;
                }
            }
            if (client.connectionState() == ConnectionState.SUSPENDED) {
                lose("disconnected until " + leaseMargin + " before the session could expire");
            }
        });
    }

    private void watchNode() {
        Watcher watcher = this::onNodeEvent;
        client.checkExists().usingWatcher(watcher).forPathAsync(ticket.path()).whenComplete((stat, e) -> {
            if (e == null && stat == null) {
                lose(ticket.name() + " was deleted");
            } else if (e != null) {
                LOG.debug("could not watch {}: {}", ticket.path(), e.toString());
            }
        });
    }

    private void onNodeEvent(WatchedEvent event) {
        synchronized (this) {
            if (closed || lostReason != null) {
                return;
            }
        }
        switch (event.getType()) {
            case NodeDeleted -> lose(ticket.name() + " was deleted by someone else");
            case NodeDataChanged, NodeCreated -> watchNode();
            default -> {
                // connection events arrive through the state listener
            }
        }
    }

    private void lose(String reason) {
        List<Runnable> toRun;
        synchronized (this) {
            if (lostReason != null || closed) {
                return;
            }
            lostReason = reason;
            toRun = new ArrayList<>(callbacks);
            callbacks.clear();
            leaseTimer++;
        }
        LOG.warn("hold of {} lost: {}", ticket.path(), reason);
        client.removeConnectionStateListener(listener);
        for (Runnable callback : toRun) {
            client.eventExecutor().execute(callback);
        }
    }
}
