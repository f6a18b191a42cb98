package dev.baton.recipes.lock;

import dev.baton.framework.BatonClient;
import dev.baton.framework.Deadline;
import dev.baton.framework.Futures;
import dev.baton.framework.contention.Hold;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * Several locks taken as one: all of them or none.
 *
 * <p>Algorithm: the locks are acquired one after the other, in the order given, within one time
 * budget for all of them (once it is spent, the remaining locks are tried once instead of
 * waited for); if one cannot be had, the ones already taken are released in reverse order.
 * Release gives them all back. A hold is re-entrant per thread, and valid only while every part
 * is; its fencing token is the largest part's, which grows from holder to holder as long as
 * every process lists the locks in the same order. (Lock them in one global order everywhere,
 * as with any set of locks, or two multi-locks can each wait for the other until their budgets
 * run out.)
 *
 * <p>Guarantees and caveats: those of its parts ({@link InterProcessMutex}). Each acquisition of
 * the multi-lock takes its own place in each part's line, so a thread that already holds one of
 * the parts through that part's own object waits for itself. A {@link LockLease#guard guard} of a
 * multi-lock checks every part's node, so all parts must live on the transaction's client.
 *
 * <pre>{@code
 * InterProcessMultiLock both = new InterProcessMultiLock(client, List.of("/locks/account/17", "/locks/account/42"));
 * if (both.acquire(Duration.ofSeconds(5))) {
 *     try {
 *         transfer(17, 42, amount);
 *     } finally {
 *         both.release();
 *     }
 * }
 * }</pre>
 */
public final class InterProcessMultiLock extends HandleLock {
    private final List<HandleLock> locks;

    /**
     * A multi-lock of one {@link InterProcessMutex} per path, taken in the order of {@code paths}.
     *
     * @param client the client whose session the locks' nodes belong to
     * @param paths the mutexes' folders, distinct, in the one order every process uses
     * @throws dev.baton.framework.InvalidPathException if a path is not a valid folder for a recipe
     */
    public InterProcessMultiLock(BatonClient client, List<String> paths) {
        this(mutexes(client, paths));
    }

    /**
     * A multi-lock of {@code locks}, taken in list order (every lock of this module qualifies).
     *
     * @param locks the parts, distinct, in the one order every process uses
     */
    public InterProcessMultiLock(List<? extends LeasableLock> locks) {
        super("InterProcessMultiLock " + describe(locks), true);
        Set<LeasableLock> seen = new HashSet<>();
        List<HandleLock> parts = new ArrayList<>();
        for (LeasableLock lock : locks) {
            if (!seen.add(Objects.requireNonNull(lock, "locks must not contain null"))) {
                throw new IllegalArgumentException("locks must be distinct, but " + lock + " appears twice: it would wait for itself");
            }
            // the interface is sealed: every LeasableLock is a HandleLock
            parts.add((HandleLock) lock);
        }
        this.locks = List.copyOf(parts);
    }

    @Override
    protected CompletableFuture<Hold> acquireHold(Deadline deadline) {
        List<Function<Deadline, CompletableFuture<Hold>>> steps = new ArrayList<>();
        for (HandleLock lock : locks) {
            // each part as a future of Hold, still cancelling the part's own attempt when cancelled
            steps.add(until -> Futures.mapOrGiveBack(lock.acquireHold(until), hold -> (Hold) hold, Hold::delete));
        }
        return Futures.mapOrGiveBack(AllOrNothing.acquire(steps, deadline, Hold::delete), CompositeHold::new,
            holds -> holds.forEach(Hold::delete));
    }

    private static List<InterProcessMutex> mutexes(BatonClient client, List<String> paths) {
        Objects.requireNonNull(client, "client");
        Objects.requireNonNull(paths, "paths");
        if (new HashSet<>(paths).size() != paths.size()) {
            throw new IllegalArgumentException("paths must be distinct (a path listed twice would wait for itself), were " + paths);
        }
        paths.forEach(path -> LockPaths.validate("InterProcessMultiLock", path));
        return paths.stream().map(path -> new InterProcessMutex(client, path)).toList();
    }

    private static String describe(List<? extends LeasableLock> locks) {
        Objects.requireNonNull(locks, "locks");
        if (locks.isEmpty()) {
            throw new IllegalArgumentException("a multi-lock needs at least one lock, was given none");
        }
        return locks.stream().map(lock -> lock == null ? "null" : HandleLock.description((HandleLock) lock)).toList().toString();
    }
}
