package dev.baton.recipes.lock;

import dev.baton.framework.BatonClient;
import dev.baton.framework.Failures;
import dev.baton.framework.Futures;
import dev.baton.framework.contention.Contention;
import dev.baton.framework.contention.ContentionRule;
import dev.baton.framework.contention.Decision;
import dev.baton.framework.contention.Holding;
import dev.baton.framework.contention.Ticket;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * ZooKeeper's own lock recipe ({@code org.apache.zookeeper.recipes.lock.WriteLock}) with its API:
 * {@link #lock()} asks for the lock and returns at once whether it is held; if not, the
 * {@link LockListener} hears {@code lockAcquired()} when it is.
 *
 * <p>Algorithm: the contention engine with the mutex rule, and the ZooKeeper recipe's names:
 * ephemeral sequential nodes {@code x-<sessionId>-<seq>} in {@code dir}, ordered by the digits
 * after the last {@code '-'}. The name is the protection: after a lost reply the engine finds the
 * node it already created instead of making a second one. Several WriteLocks of one client in
 * one folder share the {@code x-<sessionId>-} prefix, so each node's data also carries a random
 * id of the create that made it (a 24-byte mark, see
 * {@link dev.baton.framework.CreateBuilder#withSessionProtection()}): a retry adopts, and an
 * abandoned create deletes, only its own node, never another WriteLock's. Readers through
 * {@code getData()} see the node's (empty) data without the mark. Contenders are recognised by
 * name alone, so nodes of ZooKeeper's own recipe (no mark) stand in the same line.
 *
 * <p>Guarantees and caveats. One owner at a time among live sessions, in order of arrival. The
 * hold is watched under the client's error policy; when it is lost the listener hears
 * {@code lockReleased()} and {@link #isOwner()} turns false (ZooKeeper's recipe says nothing). A
 * hold already lost when it is granted (the connection dropped as the line reached it) is never
 * announced: its node is given back and the lock queues again.
 * If the session ends while waiting, the engine queues again, with a new node (so
 * {@link #getId()} changes). There are no fencing tokens in the original API;
 * {@link #fencingToken()} adds one. A paused owner may act after its session expired: fence.
 *
 * <pre>{@code
 * WriteLock lock = new WriteLock(client, "/jobs/nightly", new LockListener() {
 *     public void lockAcquired() { scheduler.runNightly(); }
 *     public void lockReleased() { scheduler.stopNightly(); }
 * });
 * lock.lock();      // true if held now; lockAcquired() runs either way, now or later
 * ...
 * lock.unlock();
 * }</pre>
 */
public final class WriteLock implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(WriteLock.class);
    private static final byte[] NO_DATA = new byte[0];
    /** Names are {@code x-<sessionId>-<seq>}: no marker of their own; sorted by the digits after the last '-'. */
    static final Set<String> MARKERS = Set.of("", "-");

    private enum State { IDLE, WAITING, OWNER, LOST }

    private final BatonClient client;
    private final String dir;
    private final LockListener listener;
    private final Contention contention;
    private State state = State.IDLE;
    private int round;
    private CompletableFuture<Ticket> attempt;
    private Ticket ticket;
    private Holding holding;
    private volatile String nodeName;

    /**
     * A lock in {@code dir} that tells {@code listener} (may be null) of acquisitions and releases.
     *
     * @param client the client whose session the lock's nodes belong to
     * @param dir the lock's folder, such as {@code /locks/config}
     * @param listener told of each acquisition and release, or null
     */
    public WriteLock(BatonClient client, String dir, LockListener listener) {
        Objects.requireNonNull(client, "client");
        LockPaths.validate("WriteLock", dir);
        this.client = client;
        this.dir = dir;
        this.listener = listener;
        this.contention = Contention.of(client, dir, "", ContentionRule.mutex()).withMarkers(MARKERS).withSessionProtection();
    }

    /**
     * A lock in {@code dir} without a listener.
     *
     * @param client the client whose session the lock's nodes belong to
     * @param dir the lock's folder, such as {@code /locks/config}
     */
    public WriteLock(BatonClient client, String dir) {
        this(client, dir, null);
    }

    /**
     * Asks for the lock: creates this process's node (unless it has one) and looks at the line
     * once. Does not wait for the lock.
     *
     * <p>If another thread calls {@link #unlock()} while this call looks, the place is given up
     * and this call returns false (no {@code lockAcquired()} follows).
     *
     * @return whether the lock is held now; if false, {@code lockAcquired()} follows when it is
     *     (unless the place is given up first)
     * @throws InterruptedException if the calling thread is interrupted while it waits for the replies
     */
    public boolean lock() throws InterruptedException {
        CompletableFuture<Boolean> firstLook = new CompletableFuture<>();
        CompletableFuture<Ticket> mine;
        int r;
        synchronized (this) {
            switch (state) {
                case OWNER -> {
                    return true;
                }
                case WAITING -> {
                    return false;
                }
                case LOST -> {
                    // the lost hold's node may still exist (a suspension the session survived): give it back first
                    giveBack(ticket, holding);
                    ticket = null;
                    holding = null;
                }
                case IDLE -> { }
            }
            mine = startRound(firstLook);
            r = round;
        }
        try {
            // wait for either without throwing: how it ended is read from the futures below
            CompletableFuture.anyOf(firstLook, mine).exceptionally(e -> null).get();
            if (mine.isCancelled()) {
                return false; // unlock() on another thread gave the place up while we looked
            }
            if (mine.isCompletedExceptionally() || !firstLook.getNow(false)) {
                mine.getNow(null); // throws the failure, if that is what ended the wait
                return false;
            }
            Ticket held = mine.get();
            int now = round();
            if (now != r) {
                return false; // given up by unlock() meanwhile; the attempt's own callback gives the node back
            }
            // the engine completes a holding attempt right after its decision
            settled(now, held, null);
            return isOwner();
        } catch (CancellationException e) {
            return false; // given up by unlock() on another thread after the first look
        } catch (InterruptedException e) {
            unlock();
            throw e;
        } catch (ExecutionException | CompletionException e) {
            throw Failures.rethrow(e.getCause());
        }
    }

    /**
     * Gives the lock up, or the place in line: deletes this process's node. Calls
     * {@code lockReleased()} if the lock was held (and not already reported lost).
     */
    public void unlock() {
        Ticket held;
        Holding watching;
        boolean tell = false;
        CompletableFuture<Ticket> waiting = null;
        synchronized (this) {
            held = ticket;
            watching = holding;
            switch (state) {
                case IDLE -> {
                    return;
                }
                case WAITING -> waiting = attempt;
                case OWNER -> tell = true;
                case LOST -> { }
            }
            round++;
            ticket = null;
            holding = null;
            attempt = null;
            nodeName = null;
            transition(State.IDLE);
        }
        if (waiting != null) {
            waiting.cancel(true); // the engine deletes the waiter's node
        }
        if (held != null) {
            boolean connected = client.connectionState().isConnected();
            CompletableFuture<Void> deleted = giveBack(held, watching);
            if (connected) {
                Futures.awaitDelete(deleted, "WriteLock " + dir);
            }
        }
        if (tell) {
            notify(LockListener::lockReleased);
        }
    }

    /** Same as {@link #unlock()}. */
    @Override
    public void close() {
        unlock();
    }

    /** {@return whether this process holds the lock now (false once the hold is lost)} */
    public synchronized boolean isOwner() {
        return state == State.OWNER && holding.isValid();
    }

    /** {@return the path of this process's node in line, or null when it has none} */
    public String getId() {
        String name = nodeName;
        return name == null ? null : dir + "/" + name;
    }

    /** {@return the lock's folder} */
    public String getDir() {
        return dir;
    }

    /**
     * {@return the creation zxid of the owner's node: larger than any earlier owner's}
     *
     * @throws IllegalStateException if this process does not own the lock
     */
    public synchronized long fencingToken() {
        if (state != State.OWNER) {
            throw new IllegalStateException("WriteLock " + dir + " is not owned by this process (state " + state + ")");
        }
        return ticket.fencingToken();
    }

    private synchronized int round() {
        return round;
    }

    /**
     * Takes a new place in line (a new round); {@code firstLook} hears whether its first look held.
     * Caller holds the lock.
     */
    private CompletableFuture<Ticket> startRound(CompletableFuture<Boolean> firstLook) {
        int r = ++round;
        ContentionRule mutex = ContentionRule.mutex();
        // the rule decides as the mutex does; watching it tells lock() the first answer and the node's name
        ContentionRule observed = (ordered, index) -> {
            nodeName = ordered.get(index);
            Decision decision = mutex.decide(ordered, index);
            firstLook.complete(decision.holds());
            return decision;
        };
        CompletableFuture<Ticket> mine = contention.withRule(observed).acquire(NO_DATA);
        attempt = mine;
        transition(State.WAITING);
        mine.whenComplete((held, e) -> settled(r, held, e));
        return mine;
    }

    /**
     * The attempt of round {@code r} ended: held, or failed. Idempotent (lock() may get there first).
     * A hold already lost when it is granted (the connection dropped, or the session ended, as the
     * line reached it) is not announced: its node is given back and a new round takes a place at the
     * back of the line, so {@code lockAcquired()} is heard only for a hold that is valid then.
     */
    private void settled(int r, Ticket held, Throwable e) {
        synchronized (this) {
            if (r != round || state != State.WAITING) {
                if (held != null && r != round) {
                    contention.release(held); // an attempt that was abandoned after all
                }
                return;
            }
            if (e != null || held == null) {
                LOG.warn("WriteLock {}: acquisition failed: {}", dir, e == null ? "no ticket" : Failures.unwrap(e).toString());
                attempt = null;
                transition(State.IDLE);
                return;
            }
            Holding watching = Holding.monitor(client, held, client.errorPolicy());
            if (!watching.isValid()) {
                LOG.info("WriteLock {}: the hold of {} was lost as it was granted ({}); it is given back and the lock"
                    + " queues again", dir, held.name(), watching.lossReason().orElse("lost"));
                giveBack(held, watching);
                startRound(new CompletableFuture<>());
                return;
            }
            ticket = held;
            nodeName = held.name();
            holding = watching;
            holding.onLost(() -> lost(r));
            transition(State.OWNER);
        }
        notify(LockListener::lockAcquired);
    }

    private void lost(int r) {
        synchronized (this) {
            if (r != round || state != State.OWNER) {
                return;
            }
            transition(State.LOST);
        }
        notify(LockListener::lockReleased);
    }

    private CompletableFuture<Void> giveBack(Ticket held, Holding watching) {
        if (watching != null) {
            watching.close();
        }
        return contention.release(held);
    }

    private void transition(State next) {
        state = next;
    }

    private void notify(Consumer<LockListener> call) {
        if (listener != null) {
            client.eventExecutor().execute(() -> call.accept(listener));
        }
    }

    @Override
    public synchronized String toString() {
        return "WriteLock " + dir + " (" + state + (nodeName == null ? "" : ", " + nodeName) + ")";
    }
}
