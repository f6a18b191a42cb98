package dev.baton.recipes.lock;

import dev.baton.framework.contention.ProcessLine;
import dev.baton.framework.contention.SharedTicket;
import dev.baton.framework.BatonClient;
import dev.baton.framework.Deadline;
import dev.baton.framework.Futures;
import dev.baton.framework.NoNodeException;
import dev.baton.framework.contention.Contenders;
import dev.baton.framework.contention.Contention;
import dev.baton.framework.contention.ContentionRule;
import dev.baton.framework.contention.Hold;
import dev.baton.framework.observe.ObservedHolds;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A counting semaphore shared by processes: at most {@code maxLeases} leases are out at a time.
 *
 * <p>Algorithm (Curator's layout, so Curator and Baton processes share one semaphore): each
 * lease is an ephemeral sequential node {@code leases/_c_<uuid>-lease-<seq>}. To take one, a
 * process first takes the semaphore's internal mutex ({@code locks/}, an
 * {@link InterProcessMutex} layout), creates its lease node, and counts the nodes in
 * {@code leases/} with a children watch until there are at most {@code maxLeases}; then it gives
 * the mutex back. Waiters queue on the mutex, each watching one predecessor, and only the
 * mutex's holder watches {@code leases/}: returning a lease wakes one process. Grants are FIFO.
 * Several leases are taken one after the other within one time budget, all or none.
 *
 * <p>Guarantees and caveats. While their sessions live, at most {@code maxLeases} leases are
 * held. A lease is watched under the client's error policy like a lock ({@link Lease#isValid},
 * {@link Lease#onLost}); closing a lost lease throws {@link LockOwnershipLostException}. A lease is
 * valid when the caller gets it: one lost between its grant and its hand-out (the connection
 * dropped as the count let it in) is given back and the acquisition goes on within its deadline,
 * and several leases taken at once are all given back and taken again if one was lost meanwhile. A stray
 * node in {@code leases/} counts as a lease (only ever stricter). This semaphore does not read
 * {@code maxLeases} from ZooKeeper: every participant must be built with the same number. A
 * timed-out, interrupted or cancelled acquisition leaves no node behind.
 *
 * <pre>{@code
 * InterProcessSemaphoreV2 connections = new InterProcessSemaphoreV2(client, "/semaphores/db", 10);
 * try (Lease lease = connections.acquire(Duration.ofSeconds(2))) {
 *     if (lease != null) {
 *         query();
 *     }
 * }
 * }</pre>
 */
public final class InterProcessSemaphoreV2 {
    private static final Logger LOG = LoggerFactory.getLogger(InterProcessSemaphoreV2.class);
    /** The folder of the internal mutex, under the semaphore's path. */
    public static final String LOCKS = "locks";
    /** The folder of the leases, under the semaphore's path. */
    public static final String LEASES = "leases";
    /** The marker of lease nodes, as Curator names them. */
    public static final String LEASE_MARKER = "lease-";
    private static final byte[] NO_DATA = new byte[0];

    private final BatonClient client;
    private final String path;
    private final int maxLeases;
    private final Contention internalMutex;
    private final String leasesDir;
    /** The local line of the {@link SharedTicket} mode, or null. */
    private final ProcessLine shared;

    /**
     * A semaphore on {@code path} with {@code maxLeases} leases.
     *
     * @param client the client whose session the leases' nodes belong to
     * @param path the semaphore's folder, such as {@code /semaphores/db}
     * @param maxLeases how many leases exist, 1 or more (every participant must give the same number)
     * @throws IllegalArgumentException if {@code maxLeases} is less than 1
     * @throws dev.baton.framework.InvalidPathException if {@code path} is not a valid ZooKeeper path
     */
    public InterProcessSemaphoreV2(BatonClient client, String path, int maxLeases) {
        this(client, path, maxLeases, Optional.empty());
    }

    /**
     * A semaphore on {@code path} with {@code maxLeases} leases, in the shared-ticket mode: the
     * threads (and callers) that use this object share the lease nodes the process holds. The
     * process takes lease nodes one at a time, only while a local caller waits and it holds fewer
     * than {@code maxLeases}; a returned lease passes, in memory and first come first served, to
     * the next local caller waiting, within the fairness limits of {@code sharing} (once another
     * process waits at the semaphore, a lease node is given back after its hand-off or time budget,
     * and its remaining callers take a new one, at the back of the line). With no local caller
     * waiting, a returned lease node is deleted, as in the ordinary mode. Each lease's
     * {@link Lease#holdToken()} is the pair of its node's zxid and its hand-off number on that
     * node. See {@link SharedTicket}.
     *
     * @param client the client whose session the leases' nodes belong to
     * @param path the semaphore's folder, such as {@code /semaphores/db}
     * @param maxLeases how many leases exist, 1 or more (every participant must give the same number)
     * @param sharing the fairness limits, such as {@link SharedTicket#defaults()}
     * @throws IllegalArgumentException if {@code maxLeases} is less than 1
     * @throws dev.baton.framework.InvalidPathException if {@code path} is not a valid ZooKeeper path
     */
    public InterProcessSemaphoreV2(BatonClient client, String path, int maxLeases, SharedTicket sharing) {
        this(client, path, maxLeases, Optional.of(Objects.requireNonNull(sharing, "sharing")));
    }

    /** Both modes: no {@code sharing} for the ordinary one, where each caller's lease is its own node. */
    private InterProcessSemaphoreV2(BatonClient client, String path, int maxLeases, Optional<SharedTicket> sharing) {
        this.client = Objects.requireNonNull(client, "client");
        if (maxLeases < 1) {
            throw new IllegalArgumentException("maxLeases must be at least 1, was " + maxLeases);
        }
        LockPaths.validate("InterProcessSemaphoreV2", path);
        this.internalMutex = Contention.of(client, path + "/" + LOCKS,
            InterProcessMutex.MARKER, ContentionRule.mutex());
        this.path = path;
        this.maxLeases = maxLeases;
        this.leasesDir = path + "/" + LEASES;
        this.shared = sharing.isEmpty() ? null : localLine(sharing.get());
    }

    /** The shared-ticket mode's line: its nodes are lease nodes, taken as in the ordinary mode. */
    private ProcessLine localLine(SharedTicket sharing) {
        return new ProcessLine(client, sharing, ProcessLine.Sharing.EXCLUSIVE, maxLeases, new ProcessLine.Source() {
            @Override
            public CompletableFuture<? extends Hold> take(Deadline deadline) {
                return takeLeaseNode(deadline);
            }

            @Override
            public Hold takeBlocking(Deadline deadline) throws InterruptedException {
                return Futures.awaitOrCancel(takeLeaseNode(deadline), Hold::delete);
            }

            @Override
            public String lineDir() {
                // whoever waits for a lease waits at the internal mutex first
                return path + "/" + LOCKS;
            }

            @Override
            public Set<String> lineMarkers() {
                return Set.of(InterProcessMutex.MARKER);
            }
        });
    }

    /** {@return the semaphore's folder} */
    public String path() {
        return path;
    }

    /** {@return how many leases the semaphore has} */
    public int maxLeases() {
        return maxLeases;
    }

    /**
     * Waits until a lease is free and takes it.
     *
     * @return the lease
     * @throws InterruptedException if the calling thread is interrupted while it waits (nothing is left
     *     behind)
     */
    public Lease acquire() throws InterruptedException {
        return Futures.awaitOrCancel(leaseAsync(Deadline.none()), Lease::releaseQuietly);
    }

    /**
     * Waits up to {@code timeout} for a lease ({@link Duration#ZERO}: takes one only if one is free now).
     *
     * @param timeout how long to wait at most
     * @return the lease, or null on timeout
     * @throws InterruptedException if the calling thread is interrupted while it waits (nothing is left
     *     behind)
     */
    public Lease acquire(Duration timeout) throws InterruptedException {
        return Futures.awaitOrCancel(leaseAsync(Deadline.afterNonNegative(timeout)), Lease::releaseQuietly);
    }

    /**
     * Waits until {@code qty} leases are taken.
     *
     * @param qty how many leases, 1 to {@link #maxLeases()}
     * @return the leases
     * @throws InterruptedException if the calling thread is interrupted while it waits (none is kept)
     */
    public Collection<Lease> acquire(int qty) throws InterruptedException {
        return Futures.awaitOrCancel(acquireAll(qty, Deadline.none()), InterProcessSemaphoreV2::returnQuietly);
    }

    /**
     * Waits up to {@code timeout} in all for {@code qty} leases.
     *
     * @param qty how many leases, 1 to {@link #maxLeases()}
     * @param timeout how long to wait at most, for all of them
     * @return the leases, or null on timeout (then none is kept)
     * @throws InterruptedException if the calling thread is interrupted while it waits (none is kept)
     */
    public Collection<Lease> acquire(int qty, Duration timeout) throws InterruptedException {
        return Futures.awaitOrCancel(acquireAll(qty, Deadline.afterNonNegative(timeout)), InterProcessSemaphoreV2::returnQuietly);
    }

    /**
     * Takes a lease without parking a thread, waiting as long as it takes (as the locks'
     * {@code acquireAsync()}). Cancelling the future gives back whatever it took.
     *
     * @return the lease, once one is free
     */
    public CompletableFuture<Lease> acquireAsync() {
        return leaseAsync(Deadline.none());
    }

    /**
     * Takes a lease without parking a thread; completes with null if {@code timeout} passes first
     * ({@link Duration#ZERO}: takes one only if one is free now; to wait without limit, call
     * {@link #acquireAsync()}). Cancelling the future gives back whatever it took.
     *
     * @param timeout how long to wait at most, not negative
     * @return the lease, or null on timeout
     * @throws IllegalArgumentException naming the timeout, if it is negative
     * @throws NullPointerException if {@code timeout} is null
     */
    public CompletableFuture<Lease> acquireAsync(Duration timeout) {
        return leaseAsync(until(timeout));
    }

    /**
     * {@code qty} leases without parking a thread, all or none, waiting as long as it takes.
     *
     * @param qty how many leases, 1 to {@link #maxLeases()}
     * @return the leases, once all are taken
     * @throws IllegalArgumentException if {@code qty} is not between 1 and {@link #maxLeases()}
     */
    public CompletableFuture<List<Lease>> acquireAsync(int qty) {
        return acquireAll(qty, Deadline.none());
    }

    /**
     * {@code qty} leases without parking a thread, all or none, within {@code timeout} in all (to wait
     * without limit, call {@link #acquireAsync(int)}).
     *
     * @param qty how many leases, 1 to {@link #maxLeases()}
     * @param timeout how long to wait at most, for all of them, not negative
     * @return the leases, or null on timeout (then none is kept)
     * @throws IllegalArgumentException if {@code qty} is not between 1 and {@link #maxLeases()}, or
     *     {@code timeout} is negative
     * @throws NullPointerException if {@code timeout} is null
     */
    public CompletableFuture<List<Lease>> acquireAsync(int qty, Duration timeout) {
        return acquireAll(qty, until(timeout));
    }

    /**
     * Gives {@code lease} back (the same as closing it).
     *
     * @param lease a lease of this semaphore
     * @throws LockOwnershipLostException if the lease was lost before
     */
    public void returnLease(Lease lease) {
        Objects.requireNonNull(lease, "lease").close();
    }

    /**
     * Gives every lease back, even if some were lost.
     *
     * @param leases leases of this semaphore
     * @throws LockOwnershipLostException after returning them all, if any was lost
     */
    public void returnAll(Collection<Lease> leases) {
        LockOwnershipLostException lost = null;
        for (Lease lease : new ArrayList<>(Objects.requireNonNull(leases, "leases"))) {
            try {
                lease.close();
            } catch (LockOwnershipLostException e) {
                lost = e;
            }
        }
        if (lost != null) {
            throw lost;
        }
    }

    /**
     * {@return names of the lease nodes now in {@code leases/}, oldest first (Curator's leases included)}
     *
     * @throws InterruptedException if the calling thread is interrupted while it waits for the listing
     */
    public List<String> participantNodes() throws InterruptedException {
        try {
            return Contenders.inOrder(client.getChildren().forPath(leasesDir), LeaseAcquisition.LEASE_MARKERS);
        } catch (NoNodeException e) {
            return List.of();
        }
    }

    /**
     * Curator's name for {@link #participantNodes()}.
     *
     * @return what {@link #participantNodes()} returns
     * @throws InterruptedException if the calling thread is interrupted while it waits for the listing
     */
    public List<String> getParticipantNodes() throws InterruptedException {
        return participantNodes();
    }

    /** One lease as a {@link Hold}: what {@link InterProcessSemaphoreMutex} holds. */
    CompletableFuture<Hold> acquireHold(Deadline deadline) {
        // in the shared-ticket mode the observer is told of each caller, not of the process's lease nodes
        return ObservedHolds.track(client, "semaphore", path, () -> shared != null ? shared.acquire(deadline) : takeLeaseNode(deadline));
    }

    /** {@return whether, in the shared-ticket mode, a lease node is given back at its next release (for tests)} */
    boolean yieldsAtNextHandOff() {
        return shared != null && shared.yieldsAtNextHandOff();
    }

    /** One lease node of the process. */
    private CompletableFuture<Hold> takeLeaseNode(Deadline deadline) {
        return new LeaseAcquisition(client, internalMutex, leasesDir, maxLeases, NO_DATA, deadline).start();
    }

    /**
     * The one place an asynchronous caller's timeout becomes a deadline, checked as the blocking forms
     * and the locks check it: a negative one is refused (it used to mean "look once", silently), and
     * so is null (it used to mean "no limit", which {@link #acquireAsync()} spells without a sentinel).
     */
    private static Deadline until(Duration timeout) {
        return Deadline.afterNonNegative(timeout);
    }

    /**
     * One lease, valid when the caller gets it: a lease node whose hold was lost between its grant and
     * its hand-out (the connection dropped, or the session ended, as the count let it in) is given back,
     * and the acquisition goes on within the deadline. Handed out, it would count as a lease the caller
     * could never rely on, while once its session ends another process takes the lease it stood for.
     */
    private CompletableFuture<Lease> leaseAsync(Deadline deadline) {
        return Futures.mapOrGiveBack(Futures.untilValid(() -> acquireHold(deadline), Hold::isValid, this::giveBack),
            this::lease, Hold::delete);
    }

    /**
     * {@code qty} leases, all valid when the caller gets them: if one was lost while the later ones
     * were taken (the connection dropped meanwhile), all are given back and taken again, within the
     * same deadline, as a multi-lock does with its parts.
     */
    private CompletableFuture<List<Lease>> acquireAll(int qty, Deadline deadline) {
        if (qty < 1 || qty > maxLeases) {
            throw new IllegalArgumentException("qty must be between 1 and maxLeases (" + maxLeases + "), was " + qty);
        }
        List<Function<Deadline, CompletableFuture<Lease>>> steps = Collections.nCopies(qty, this::leaseAsync);
        return Futures.untilValid(() -> AllOrNothing.acquire(steps, deadline, Lease::releaseQuietly),
            leases -> leases.stream().allMatch(Lease::isValid), this::giveBackAll);
    }

    /** A hold that is not handed out ({@link Hold#giveBackUnhanded}): lost on its way, or arrived after a cancel. */
    private void giveBack(Hold hold) {
        Hold.giveBackUnhanded(hold, this);
    }

    /** Leases that are not handed out together: one of them was lost, or the caller stopped waiting. */
    private void giveBackAll(List<Lease> leases) {
        leases.stream().filter(lease -> !lease.isValid()).findFirst().ifPresent(lost -> LOG.info(
            "{}: {} was lost before the leases were handed out ({}); all {} are given back and taken again", this, lost,
            lost.lossReason().orElse("lost"), leases.size()));
        returnQuietly(leases);
    }

    private Lease lease(Hold hold) {
        return new Lease(hold, "lease of semaphore " + path, grant -> { });
    }

    private static void returnQuietly(Collection<Lease> leases) {
        leases.forEach(Lease::releaseQuietly);
    }

    @Override
    public String toString() {
        return "InterProcessSemaphoreV2 " + path + " (" + maxLeases + " leases)";
    }
}
