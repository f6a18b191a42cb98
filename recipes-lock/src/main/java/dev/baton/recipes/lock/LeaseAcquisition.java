package dev.baton.recipes.lock;

import dev.baton.framework.BatonClient;
import dev.baton.framework.CreatedNode;
import dev.baton.framework.Deadline;
import dev.baton.framework.Failures;
import dev.baton.framework.NoNodeException;
import dev.baton.framework.SessionExpiredException;
import dev.baton.framework.contention.Contenders;
import dev.baton.framework.contention.Contention;
import dev.baton.framework.contention.Hold;
import dev.baton.framework.contention.Ticket;
import dev.baton.framework.contention.Holding;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;

/**
 * One lease of a semaphore, acquired without parking a thread: a small state machine driven by
 * replies and one children watch.
 *
 * <p>Steps: take the semaphore's internal mutex (the contention engine on {@code locks/}); create
 * the lease node in {@code leases/}; list {@code leases/} with a watch until {@link SemaphoreRule}
 * says the lease holds; give the internal mutex back. Only the internal mutex's holder ever waits
 * on the children watch, so a returned lease wakes one process, not every waiter; and Curator's
 * semaphore takes the same steps on the same nodes, so the two share a semaphore safely. If the
 * session ends while the lease node is being created, or the lease node disappears while counting,
 * it starts over: a new place at the internal mutex and a new lease node, on the new session,
 * within the same deadline.
 */
final class LeaseAcquisition {
    static final Set<String> LEASE_MARKERS = Set.of(InterProcessSemaphoreV2.LEASE_MARKER);
    private static final byte[] NO_DATA = new byte[0];

    private enum State { LOCKING, CREATING, COUNTING, HELD, ABANDONED }

    private final BatonClient client;
    private final Contention internalMutex;
    private final String leasesDir;
    private final int maxLeases;
    private final byte[] data;
    private final Deadline deadline;
    private final CompletableFuture<Hold> result = new CompletableFuture<>();
    private State state = State.LOCKING;
    private CompletableFuture<?> inFlight;
    private Ticket mutexTicket;
    private CreatedNode lease;
    private int generation;

    LeaseAcquisition(BatonClient client, Contention internalMutex, String leasesDir, int maxLeases, byte[] data,
                     Deadline deadline) {
        this.client = client;
        this.internalMutex = internalMutex;
        this.leasesDir = leasesDir;
        this.maxLeases = maxLeases;
        this.data = data;
        this.deadline = deadline;
    }

    /** Completes with the held lease, or null on timeout; cancelling it gives everything back. */
    CompletableFuture<Hold> start() {
        // counting can take longer than the session timeout: the clock must not go stale meanwhile
        Holding.KeptContact fresh = Holding.keepLeaderContact(client);
        result.whenComplete((hold, e) -> fresh.close());
        if (!lookOnce() && !deadline.isNone()) {
            CompletableFuture.delayedExecutor(deadline.remainingNanos(), TimeUnit.NANOSECONDS, client.asyncExecutor()).execute(() -> result.complete(null));
        }
        result.whenComplete((hold, e) -> {
            if (hold == null) {
                abandon();
            }
        });
        lock();
        return result;
    }

    /** Past the deadline (a zero timeout): look once, never wait. */
    private boolean lookOnce() {
        return deadline.hasPassed();
    }

    private void lock() {
        CompletableFuture<Ticket> locking;
        synchronized (this) {
            if (result.isDone()) {
                return;
            }
            state = State.LOCKING;
            // our own timer bounds the whole; past the deadline we look once at the mutex too
            locking = lookOnce() ? internalMutex.acquire(NO_DATA, Duration.ZERO) : internalMutex.acquire(NO_DATA);
            inFlight = locking;
        }
        locking.whenComplete((ticket, e) -> {
            if (e != null) {
                fail(e);
            } else if (ticket == null) {
                result.complete(null);
            } else {
                locked(ticket);
            }
        });
    }

    private void locked(Ticket ticket) {
        CompletableFuture<CreatedNode> creating;
        synchronized (this) {
            if (result.isDone()) {
                internalMutex.release(ticket);
                return;
            }
            mutexTicket = ticket;
            state = State.CREATING;
            creating = client.create()
                .withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
                .withProtection()
                .creatingParentContainersIfNeeded()
                .forPathWithStatAsync(leasesDir + "/" + InterProcessSemaphoreV2.LEASE_MARKER, data);
            inFlight = creating;
        }
        creating.whenComplete((node, e) -> {
            if (e == null) {
                created(node);
            } else if (Failures.unwrap(e) instanceof SessionExpiredException) {
                sessionEndedWhileCreating(ticket);
            } else {
                fail(e);
            }
        });
    }

    /**
     * The session ended while the lease node was being created: the node, if the servers made it,
     * went with the session, and so did our place at the internal mutex. As {@link #count} does
     * for the same failure, give the mutex back and take a new place, on the new session; the
     * deadline still bounds the whole.
     */
    private void sessionEndedWhileCreating(Ticket ticket) {
        synchronized (this) {
            if (result.isDone() || mutexTicket != ticket) {
                return; // abandoned meanwhile: abandon() gave back what we had
            }
            mutexTicket = null;
            inFlight = null;
        }
        internalMutex.release(ticket);
        lock();
    }

    private void created(CreatedNode node) {
        Ticket staleMutex = null;
        synchronized (this) {
            if (result.isDone()) {
                client.delete().quietly().guaranteed().forPathAsync(node.path());
                return;
            }
            if (node.stat().getEphemeralOwner() != mutexTicket.sessionId()) {
                // the session that took the internal mutex ended while the lease was being created: the
                // mutex is no longer ours, so counting now could race another creator. Start over.
                staleMutex = mutexTicket;
                mutexTicket = null;
            } else {
                lease = node;
                state = State.COUNTING;
            }
        }
        if (staleMutex != null) {
            client.delete().quietly().guaranteed().forPathAsync(node.path());
            internalMutex.release(staleMutex);
            lock();
            return;
        }
        count(false);
    }

    /**
     * Lists the leases and asks the rule. A first look sets no watch: most looks end in HOLD, and
     * a watch left behind would fire later at a process that no longer cares. Only when it must
     * wait does it look again with a watch (a lease returned in between is then seen at once).
     */
    private void count(boolean watch) {
        int gen;
        String mine;
        synchronized (this) {
            if (result.isDone() || state != State.COUNTING) {
                return;
            }
            gen = ++generation;
            mine = lease.name();
        }
        var listing = client.getChildren();
        if (watch) {
            listing = listing.usingWatcher(event -> onEvent(event, gen));
        }
        listing.forPathAsync(leasesDir).whenComplete((children, e) -> {
            if (e != null) {
                Throwable cause = Failures.unwrap(e);
                if (cause instanceof NoNodeException || cause instanceof SessionExpiredException) {
                    startOver(gen);
                } else {
                    fail(cause);
                }
                return;
            }
            switch (SemaphoreRule.decide(children, mine, maxLeases)) {
                case HOLD -> held(gen);
                case WAIT -> {
                    if (lookOnce()) {
                        result.complete(null);
                    } else if (!watch) {
                        count(true);
                    }
                }
                case MISSING -> startOver(gen);
            }
        });
    }

    private void onEvent(WatchedEvent event, int gen) {
        // gen is the generation of the look that set the watch
        synchronized (this) {
            if (gen != generation || state != State.COUNTING || result.isDone()) {
                return;
            }
        }
        // disconnects keep the watch (it is set again on reconnection); anything else means look again
        if (event.getType() != Watcher.Event.EventType.None || event.getState() == Watcher.Event.KeeperState.Expired) {
            count(false);
        }
    }

    private void held(int gen) {
        Ticket mutex;
        CreatedNode node;
        synchronized (this) {
            if (gen != generation || state != State.COUNTING || result.isDone()) {
                return;
            }
            state = State.HELD;
            mutex = mutexTicket;
            node = lease;
            mutexTicket = null;
            lease = null;
        }
        internalMutex.release(mutex);
        Ticket leaseTicket = new Ticket(node.path(), Contenders.sequence(node.name(), LEASE_MARKERS),
            node.stat().getCzxid(), node.stat().getEphemeralOwner());
        Hold hold = Holding.monitor(client, leaseTicket, client.errorPolicy());
        // completing on the async executor keeps callers' continuations off the event thread
        client.asyncExecutor().execute(() -> {
            if (!result.complete(hold)) {
                hold.delete();
            }
        });
    }

    /** The lease node is gone (its session ended): give the mutex back and take a new place. */
    private void startOver(int gen) {
        Ticket mutex;
        synchronized (this) {
            if (gen != generation || state != State.COUNTING || result.isDone()) {
                return;
            }
            generation++;
            mutex = mutexTicket;
            mutexTicket = null;
            lease = null;
        }
        if (mutex != null) {
            internalMutex.release(mutex);
        }
        lock();
    }

    private void fail(Throwable e) {
        Throwable cause = Failures.unwrap(e);
        if (!(cause instanceof CancellationException)) {
            result.completeExceptionally(cause);
        }
    }

    /** Timed out, cancelled or failed: give back the mutex and the lease node, whichever we have. */
    private void abandon() {
        Ticket mutex;
        CreatedNode node;
        CompletableFuture<?> pending;
        synchronized (this) {
            if (state == State.HELD) {
                return;
            }
            state = State.ABANDONED;
            generation++;
            mutex = mutexTicket;
            node = lease;
            pending = inFlight;
            mutexTicket = null;
            lease = null;
        }
        if (pending != null) {
            // a mutex attempt deletes its own node; a cancelled create deletes what it may have made
            pending.cancel(true);
        }
        if (node != null) {
            client.delete().quietly().guaranteed().forPathAsync(node.path());
        }
        if (mutex != null) {
            internalMutex.release(mutex);
        }
    }
}
