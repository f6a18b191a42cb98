package dev.baton.recipes.lock;

import dev.baton.framework.contention.FencingToken;
import dev.baton.framework.contention.Grant;
import dev.baton.framework.contention.GrantingLock;
import dev.baton.framework.contention.Hold;
import dev.baton.framework.Deadline;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * What makes every lock of this module a {@link LeasableLock}: the framework's
 * {@link GrantingLock} (leases, asynchronous acquisition, the thread-bound API, loud loss) with
 * {@link LockLease} as the lease, so a lost hold throws {@link LockOwnershipLostException}. Each
 * lock says only how it acquires a {@link Hold} and whether a thread may re-enter it.
 */
abstract sealed class HandleLock extends GrantingLock<LockLease> implements LeasableLock
    permits InterProcessMutex, InterProcessSemaphoreMutex, InterProcessMultiLock {

    HandleLock(String description, boolean reentrant) {
        super(description, description, reentrant);
    }

    /**
     * {@inheritDoc}
     *
     * <p>Declared again here so that this package may start any lock's acquisition
     * ({@link InterProcessMultiLock} starts its parts').
     */
    @Override
    protected abstract CompletableFuture<? extends Hold> acquireHold(Deadline deadline);

    @Override
    protected final LockLease newLease(Hold hold, Consumer<Grant> onRelease) {
        return new LockLease(hold, "lease of " + description(), onRelease);
    }

    /**
     * {@return the full token of the calling thread's hold: strictly greater than every earlier
     * hold's, in the shared-ticket mode too} See {@link FencingToken}.
     *
     * @throws IllegalStateException if the calling thread holds no lock through this object
     */
    public final FencingToken holdToken() {
        LockLease mine = currentThreadLease();
        if (mine == null) {
            throw new IllegalStateException(description() + " is not held by thread '" + Thread.currentThread().getName() + "'");
        }
        return mine.holdToken();
    }

    /** What {@code lock} is, for messages: its kind and path(s). */
    static String description(HandleLock lock) {
        return lock.description();
    }
}
