package dev.baton.recipes.lock;

import dev.baton.framework.contention.ProcessLine;
import dev.baton.framework.contention.SharedTicket;
import dev.baton.framework.contention.FencingToken;
import dev.baton.framework.BatonClient;
import dev.baton.framework.contention.Contention;
import dev.baton.framework.contention.ContentionRule;
import dev.baton.framework.contention.Hold;
import dev.baton.framework.observe.ObservedHolds;
import dev.baton.framework.Deadline;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * A fair, re-entrant mutual-exclusion lock shared by processes: at most one holder at a time,
 * granted in the order of arrival, with a fencing token per hold.
 *
 * <p>Algorithm: the framework's contention engine with the mutex rule. An acquisition creates an
 * ephemeral sequential node {@code _c_<uuid>-lock-<seq>} in the lock's folder (Curator's layout,
 * so Curator and Baton processes exclude each other); the lowest sequence holds; every other
 * contender watches only the node just before its own, so one release wakes one waiter. The
 * holder's node's creation zxid is its fencing token. A thread that holds the lock may acquire
 * it again (the token stays the same); it releases as many times as it acquired. Leases
 * ({@link #acquireLease}) and {@link #acquireAsync()} hold the lock through a handle instead.
 *
 * <p>Guarantees and caveats. While the holder's session lives, nobody else holds the lock. A
 * hold is watched under the client's {@link dev.baton.framework.ErrorPolicy}: under STANDARD a
 * suspended connection already counts as loss, under SESSION_ONLY only the session's end does;
 * either way the lease turns invalid, {@code onLost} callbacks run, and the next release throws
 * {@link LockOwnershipLostException}. A loss is only noticed when the client hears of it: a
 * holder paused for longer than the session timeout (GC, a stopped VM) may still act as if it
 * held the lock after another process acquired it — pass the fencing token to what the lock
 * protects, or guard writes to ZooKeeper with {@link LockLease#guard}. A timed-out, interrupted
 * or cancelled acquisition leaves no node behind (deleted in the background if the connection
 * is down).
 *
 * <pre>{@code
 * InterProcessMutex mutex = new InterProcessMutex(client, "/locks/invoices");
 * if (mutex.acquire(Duration.ofSeconds(10))) {
 *     try {
 *         invoices.settle(batch, mutex.fencingToken());
 *     } finally {
 *         mutex.release();
 *     }
 * }
 * }</pre>
 */
public final class InterProcessMutex extends HandleLock {
    /** The marker of this lock's nodes, as Curator names them. */
    public static final String MARKER = "lock-";
    private static final byte[] NO_DATA = new byte[0];

    private final BatonClient client;
    private final Contention contention;
    private final byte[] participantData;
    /** The local line of the {@link SharedTicket} mode, or null. */
    private final ProcessLine shared;

    /**
     * A mutex on {@code path} (its folder is created when first needed, as a container).
     *
     * @param client the client whose session the lock's nodes belong to
     * @param path the lock's folder, such as {@code /locks/reports}
     * @throws dev.baton.framework.InvalidPathException if {@code path} is not a valid folder for a recipe
     */
    public InterProcessMutex(BatonClient client, String path) {
        this(client, path, NO_DATA);
    }

    /**
     * A mutex on {@code path} whose nodes carry {@code participantData} (for example the
     * process's name, so operators can see who holds or waits).
     *
     * @param client the client whose session the lock's nodes belong to
     * @param path the lock's folder, such as {@code /locks/reports}
     * @param participantData the data of each node this lock creates (copied)
     * @throws dev.baton.framework.InvalidPathException if {@code path} is not a valid folder for a recipe
     */
    public InterProcessMutex(BatonClient client, String path, byte[] participantData) {
        super("InterProcessMutex " + path, true);
        Objects.requireNonNull(client, "client");
        LockPaths.validate("InterProcessMutex", path);
        this.client = client;
        this.participantData = Objects.requireNonNull(participantData, "participantData").clone();
        this.contention = Contention.of(client, path, MARKER, ContentionRule.mutex());
        this.shared = null;
    }

    /**
     * A mutex on {@code path} in the shared-ticket mode: the threads (and leases) that use this
     * object stand in the lock's line with one node between them and hand the lock to each other in
     * memory, within the fairness limits of {@code sharing}. Share the object between the threads;
     * two objects take two nodes. See {@link SharedTicket} for the algorithm and {@link FencingToken}
     * for the tokens of its holds.
     *
     * @param client the client whose session the lock's node belongs to
     * @param path the lock's folder, such as {@code /locks/reports}
     * @param sharing the fairness limits, such as {@link SharedTicket#defaults()}
     * @throws dev.baton.framework.InvalidPathException if {@code path} is not a valid folder for a recipe
     */
    public InterProcessMutex(BatonClient client, String path, SharedTicket sharing) {
        super("InterProcessMutex " + path, true);
        Objects.requireNonNull(client, "client");
        Objects.requireNonNull(sharing, "sharing");
        LockPaths.validate("InterProcessMutex", path);
        this.client = client;
        this.participantData = NO_DATA;
        this.contention = Contention.of(client, path, MARKER, ContentionRule.mutex());
        this.shared = new ProcessLine(client, sharing, ProcessLine.Sharing.EXCLUSIVE, 1, new ProcessLine.Source() {
            @Override
            public CompletableFuture<? extends Hold> take(Deadline deadline) {
                return contention.acquireHold(participantData, deadline);
            }

            @Override
            public Hold takeBlocking(Deadline deadline) throws InterruptedException {
                return contention.acquireHoldBlocking(participantData, deadline);
            }

            @Override
            public String lineDir() {
                return path();
            }

            @Override
            public Set<String> lineMarkers() {
                return Set.of(MARKER);
            }
        });
    }

    /** {@return the lock's folder} */
    public String path() {
        return contention.dir();
    }

    /**
     * {@return the paths of the nodes of everyone holding or waiting, in line order: the holder first}
     * Curator's contenders appear too.
     *
     * @throws InterruptedException if the calling thread is interrupted while it waits for the listing
     */
    public List<String> participantNodes() throws InterruptedException {
        return contention.contendersBlocking().stream().map(name -> path() + "/" + name).toList();
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

    /** {@return whether, in the shared-ticket mode, the process gives its node back at the next release (for tests)} */
    boolean yieldsAtNextHandOff() {
        return shared != null && shared.yieldsAtNextHandOff();
    }

    /** {@return whether, in the shared-ticket mode, the process knows someone else waits, budget spent or not (for tests)} */
    boolean knowsOthersWait() {
        return shared != null && shared.knowsOthersWait();
    }

    @Override
    protected CompletableFuture<? extends Hold> acquireHold(Deadline deadline) {
        // in the shared-ticket mode the observer is told of each caller, not of the process's node
        return ObservedHolds.track(client, "mutex", path(),
            () -> shared != null ? shared.acquire(deadline) : contention.acquireHold(participantData, deadline));
    }

    @Override
    protected Hold acquireHoldBlocking(Deadline deadline) throws InterruptedException {
        return ObservedHolds.trackBlocking(client, "mutex", path(),
            () -> shared != null ? shared.acquireBlocking(deadline) : contention.acquireHoldBlocking(participantData, deadline));
    }
}
