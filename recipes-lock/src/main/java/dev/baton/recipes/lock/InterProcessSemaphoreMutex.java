package dev.baton.recipes.lock;

import dev.baton.framework.contention.SharedTicket;
import dev.baton.framework.BatonClient;
import dev.baton.framework.contention.Hold;
import dev.baton.framework.Deadline;
import java.util.concurrent.CompletableFuture;

/**
 * A mutual-exclusion lock that is not re-entrant: an {@link InterProcessSemaphoreV2} with one
 * lease, behind the lock API. Use it where a hold must not be taken twice by one thread (a
 * thread that holds it and acquires it again gets an {@link IllegalStateException} instead of
 * waiting for itself), or to share a lock with Curator's {@code InterProcessSemaphoreMutex}.
 *
 * <p>Its nodes and algorithm are the semaphore's ({@code leases/} and {@code locks/} under its
 * path); its fencing token is the creation zxid of the lease node. Grants are FIFO (through the
 * internal mutex), each lease node is created only after the previous holder's, so tokens grow
 * from holder to holder. Guarantees and caveats are those of {@link InterProcessMutex}: loss is
 * reported under the client's error policy, a paused holder needs fencing, an abandoned
 * acquisition leaves nothing behind.
 *
 * <p>Unlike Curator's {@code InterProcessSemaphoreMutex}, whose {@code release()} works from any
 * thread, {@link #acquire()} and {@link #release()} here are bound to the calling thread (another
 * thread's {@code release()} throws {@link IllegalMonitorStateException}). To let go of the lock
 * from another thread, hold it as a handle: {@link #acquireLease()} or {@link #acquireAsync()}.
 *
 * <pre>{@code
 * InterProcessSemaphoreMutex once = new InterProcessSemaphoreMutex(client, "/locks/migration");
 * try (LockLease lease = once.acquireLease(Duration.ofSeconds(30))) {
 *     if (lease != null) {
 *         migrate(lease.fencingToken());
 *     }
 * }
 * }</pre>
 */
public final class InterProcessSemaphoreMutex extends HandleLock {
    private final InterProcessSemaphoreV2 semaphore;

    /**
     * A mutex on {@code path}: a semaphore of one lease, with Curator's semaphore layout.
     *
     * @param client the client whose session the lock's nodes belong to
     * @param path the lock's folder, such as {@code /locks/migration}
     * @throws dev.baton.framework.InvalidPathException if {@code path} is not a valid folder for a recipe
     */
    public InterProcessSemaphoreMutex(BatonClient client, String path) {
        super("InterProcessSemaphoreMutex " + path, false);
        LockPaths.validate("InterProcessSemaphoreMutex", path);
        this.semaphore = new InterProcessSemaphoreV2(client, path, 1);
    }

    /**
     * A mutex on {@code path} in the shared-ticket mode: the threads (and leases) that use this object
     * stand at the semaphore with one lease node between them and hand it to each other in memory,
     * first come first served, within the fairness limits of {@code sharing}; to Curator and to
     * other processes the node is an ordinary lease. Share the object between the threads. See
     * {@link SharedTicket}; {@link LockLease#holdToken()} gives each hold's full token.
     *
     * @param client the client whose session the lock's node belongs to
     * @param path the lock's folder, such as {@code /locks/migration}
     * @param sharing the fairness limits, such as {@link SharedTicket#defaults()}
     * @throws dev.baton.framework.InvalidPathException if {@code path} is not a valid folder for a recipe
     */
    public InterProcessSemaphoreMutex(BatonClient client, String path, SharedTicket sharing) {
        super("InterProcessSemaphoreMutex " + path, false);
        LockPaths.validate("InterProcessSemaphoreMutex", path);
        this.semaphore = new InterProcessSemaphoreV2(client, path, 1, sharing);
    }

    /** {@return whether, in the shared-ticket mode, the process gives its node back at the next release (for tests)} */
    boolean yieldsAtNextHandOff() {
        return semaphore.yieldsAtNextHandOff();
    }

    /** {@return the lock's folder} */
    public String path() {
        return semaphore.path();
    }

    @Override
    protected CompletableFuture<Hold> acquireHold(Deadline deadline) {
        return semaphore.acquireHold(deadline);
    }
}
