/**
 * Inter-process locks and semaphores on ZooKeeper, with fencing tokens and lease handles.
 *
 * <p>{@link dev.baton.recipes.lock.InterProcessMutex} (fair, re-entrant),
 * {@link dev.baton.recipes.lock.InterProcessSemaphoreMutex} (not re-entrant),
 * {@link dev.baton.recipes.lock.InterProcessSemaphoreV2} (N leases) and
 * {@link dev.baton.recipes.lock.InterProcessMultiLock} (all or none) are
 * {@link dev.baton.recipes.lock.LeasableLock}s: held by a thread, by a
 * {@link dev.baton.recipes.lock.LockLease} handle, asynchronously, or through a
 * {@link java.util.concurrent.locks.Lock} view. {@link dev.baton.recipes.lock.WriteLock} keeps the
 * ZooKeeper recipe's callback API. All of them are rules on the framework's contention engine and
 * use Curator's (or ZooKeeper's) node layouts, so mixed fleets exclude each other. See
 * {@code docs/locks.md} for choosing one, and for their guarantees under connection loss, session
 * expiry and long pauses.
 */
package dev.baton.recipes.lock;
