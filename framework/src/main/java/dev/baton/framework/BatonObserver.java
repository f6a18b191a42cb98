package dev.baton.framework;

import java.time.Duration;
import java.util.Optional;

/**
 * What a client and the recipes built on it report as they work, for meters, traces or logs: the
 * one observation seam of Baton. Every method does nothing unless overridden; an observer
 * overrides the events it cares about. {@code baton-metrics} binds one to Micrometer.
 *
 * <p>How events flow. A client keeps its observers ({@link BatonClient#addObserver}); the client
 * itself reports requests and retries, and each recipe reports through
 * {@link BatonClient#observer()} of the client it was built with. With no observer added,
 * {@code observer()} is {@link #NONE}, whose methods are empty: a recipe pays one call of an empty
 * method per event (inlined by the JIT) and nothing is allocated.
 *
 * <p>Identity of a recipe. Events name the recipe's kind ({@code "mutex"}, {@code "latch"}, ...)
 * and its path as the recipe was given it (relative to the namespace of the client view the
 * recipe was built with). Paths can be unbounded (a lock per order id): an observer that turns
 * them into meter tags must map them to a bounded set of names first, as {@code baton-metrics}
 * does.
 *
 * <p>Rules for implementations. Events arrive on the thread where they happen — a caller's thread,
 * the client's async pool, its event executor, and for some lock events ZooKeeper's event thread —
 * so an observer must be thread-safe, fast and must not block or call ZooKeeper. An observer that
 * throws is logged and skipped; the recipe carries on. Connection state changes are not repeated
 * here: listen with {@link BatonClient#addConnectionStateListener}.
 *
 * <pre>{@code
 * client.addObserver(new BatonObserver() {
 *     @Override
 *     public void retriesExhausted(String operation) {
 *         log.warn("gave up retrying {}", operation);
 *     }
 * });
 * }</pre>
 */
public interface BatonObserver {
    /** The observer that observes nothing: what {@link BatonClient#observer()} is while none is added. */
    BatonObserver NONE = new BatonObserver() {
        @Override
        public String toString() {
            return "BatonObserver.NONE";
        }
    };

    /** How an acquisition of a lock, semaphore lease or similar ended. */
    enum AcquireOutcome {
        /** The caller holds it. */
        ACQUIRED,
        /** The caller's timeout passed first. */
        TIMED_OUT,
        /** It failed: an error, an interrupt, a cancellation. */
        FAILED
    }

    // ---- the client

    /**
     * One attempt of an operation was answered, or failed.
     *
     * @param operation the operation's name: create, delete, setData, getData, exists, getChildren, transaction, sync, ...
     * @param nanos from sending the attempt to its answer or failure
     * @param succeeded whether it returned normally (a server's "no node" or "bad version" answer is a failure
     *     here, unless the operation takes that answer as its success: a quiet delete's "no node",
     *     {@code watches().removeAllAsync}'s "no watcher")
     */
    default void requestCompleted(String operation, long nanos, boolean succeeded) {
    }

    /**
     * The retry policy let a failed attempt of {@code operation} be tried again.
     *
     * @param operation the operation's name
     */
    default void retrying(String operation) {
    }

    /**
     * {@code operation} failed for want of the ensemble: a retryable failure the retry policy
     * would not retry again, or no connection within the client's connection timeout (a
     * {@link NoConnectionException}: that wait is the retry for "no connection", and the policy is
     * not asked after it).
     *
     * @param operation the operation's name
     */
    default void retriesExhausted(String operation) {
    }

    /**
     * The client has closed: every {@link ClientClosingListener} has run (the recipes built on it
     * have ended their terms and holds and reported so) and its session has ended. Told on the
     * thread that closed it; an observer that keeps state for the client (such as gauges) can
     * let it go now. Not strictly the last event: an operation another thread had in flight (a
     * retry waiting for a connection) may report its end ({@link #retriesExhausted}, a failed
     * request) just after it.
     */
    default void clientClosed() {
    }

    // ---- locks, semaphores, leases

    /**
     * A caller starts waiting to acquire.
     *
     * @param recipe the recipe's kind, such as {@code "mutex"} or {@code "semaphore"}
     * @param path the recipe's path
     */
    default void acquireStarted(String recipe, String path) {
    }

    /**
     * An acquisition that {@link #acquireStarted} announced ended.
     *
     * @param recipe the recipe's kind
     * @param path the recipe's path
     * @param outcome how it ended
     * @param waitNanos how long the caller waited
     */
    default void acquireFinished(String recipe, String path, AcquireOutcome outcome, long waitNanos) {
    }

    /**
     * A hold that was {@link AcquireOutcome#ACQUIRED} ended: released, or lost ({@link #holdLost} first).
     *
     * @param recipe the recipe's kind
     * @param path the recipe's path
     * @param heldNanos how long it was held
     */
    default void holdEnded(String recipe, String path, long heldNanos) {
    }

    /**
     * A hold was lost (session expired, node deleted, or the error policy's connection rule): reported
     * once, before its {@link #holdEnded}.
     *
     * @param recipe the recipe's kind
     * @param path the recipe's path
     */
    default void holdLost(String recipe, String path) {
    }

    // ---- elections

    /**
     * A participant of this process began a term as leader.
     *
     * @param recipe {@code "latch"} or {@code "selector"}
     * @param path the election's path
     */
    default void leadershipGained(String recipe, String path) {
    }

    /**
     * A term that {@link #leadershipGained} began ended.
     *
     * @param recipe {@code "latch"} or {@code "selector"}
     * @param path the election's path
     * @param ledNanos how long the term lasted
     * @param lost true if it was lost (session, connection or lease), false if given up (close, return from
     *     {@code takeLeadership}, interrupt)
     */
    default void leadershipEnded(String recipe, String path, long ledNanos, boolean lost) {
    }

    /**
     * An {@code ElectionObserver} of this process (one that follows an election without taking
     * part) saw who leads change: a new leader, or none.
     *
     * @param path the election's path
     * @param hasLeader true if a participant leads now, false if the line is empty
     */
    default void electionLeaderSeen(String path, boolean hasLeader) {
    }

    // ---- barriers

    /** How a wait at a barrier, double barrier or count-down latch ended. */
    enum WaitOutcome {
        /** The barrier opened (or the count reached zero, or every member entered or left). */
        PASSED,
        /** The caller's timeout passed first. */
        TIMED_OUT,
        /** It failed: an error or an interrupt. */
        FAILED
    }

    /**
     * A caller starts waiting at a barrier.
     *
     * @param recipe the recipe and phase: {@code "barrier"}, {@code "double-barrier-enter"},
     *     {@code "double-barrier-leave"} or {@code "countdown-latch"}
     * @param path the barrier's path
     */
    default void barrierWaitStarted(String recipe, String path) {
    }

    /**
     * A wait that {@link #barrierWaitStarted} announced ended.
     *
     * @param recipe the recipe and phase, as it was announced
     * @param path the barrier's path
     * @param outcome how it ended
     * @param waitNanos how long the caller waited
     */
    default void barrierWaitFinished(String recipe, String path, WaitOutcome outcome, long waitNanos) {
    }

    // ---- queues

    /**
     * Items were put into a queue.
     *
     * @param path the queue's path
     * @param count how many
     */
    default void queueItemsPut(String path, int count) {
    }

    /**
     * Items were taken from a queue (removed by a poll or take, or by a consumer for delivery).
     *
     * @param path the queue's path
     * @param count how many
     */
    default void queueItemsTaken(String path, int count) {
    }

    /**
     * A blocking take or timed poll of a queue returned.
     *
     * @param path the queue's path
     * @param waitNanos how long the caller waited
     * @param gotItems whether it returned items (false: its timeout passed)
     */
    default void queueTakeWaited(String path, long waitNanos, boolean gotItems) {
    }

    /**
     * Items were moved to a queue's dead letters.
     *
     * @param path the queue's path
     * @param count how many
     */
    default void queueItemsDeadLettered(String path, int count) {
    }

    /**
     * This process saw how many items a queue holds.
     *
     * @param path the queue's path
     * @param depth the items seen
     */
    default void queueDepthSeen(String path, long depth) {
    }

    // ---- discovery

    /**
     * A service cache (or a provider's cache) now sees {@code count} instances of {@code service}.
     *
     * @param service the service's name
     * @param count the instances seen
     */
    default void serviceInstancesSeen(String service, int count) {
    }

    /**
     * A provider picked an instance of {@code service} with {@code strategy}.
     *
     * @param service the service's name
     * @param strategy the strategy's simple class name, such as {@code RoundRobinStrategy}
     * @param found whether there was an instance to pick
     */
    default void instancePicked(String service, String strategy, boolean found) {
    }

    /**
     * A provider marked an instance of {@code service} down (after errors noted against it).
     *
     * @param service the service's name
     */
    default void instanceMarkedDown(String service) {
    }

    // ---- configuration and groups

    /**
     * A configuration recipe (store, shared value) saw a new value or release.
     *
     * @param recipe {@code "config-store"}, {@code "shared-value"}, ...
     * @param path the recipe's path
     */
    default void configChangeSeen(String recipe, String path) {
    }

    /**
     * A configuration recipe wrote a value or release, or lost a conditional write's race.
     *
     * @param recipe {@code "config-store"}, {@code "shared-value"}, ...
     * @param path the recipe's path
     * @param succeeded false if the conditional write lost (the value had changed)
     */
    default void configWritten(String recipe, String path, boolean succeeded) {
    }

    /**
     * A configuration store showed a release: the one it found when it started (if the store has
     * had one), then each newer one. For a newer release {@code sinceCommitted} says how long
     * after its writer committed it the store showed it: this process's clock less the commit time
     * the writer put in the release (its own clock), so it holds any difference between the two
     * machines' clocks, and is never negative (a writer's clock ahead of this one's gives zero). It
     * is empty for the release found at start, and for a release without a commit time (a writer
     * of the first layout). A store that was cut off and comes back is told once, of the latest
     * release, with the time it took to reach it.
     *
     * @param recipe {@code "config-store"}
     * @param path the store's base path
     * @param release the release number the store now shows
     * @param sinceCommitted how long after its commit the store showed it, if that is known
     */
    default void configReleaseSeen(String recipe, String path, long release, Optional<Duration> sinceCommitted) {
    }

    /**
     * A group recipe now sees {@code members} members.
     *
     * @param path the group's membership path
     * @param members the members seen
     */
    default void groupMembersSeen(String path, int members) {
    }

    // ---- transactions (two-phase commit)

    /**
     * A coordinator of this process started a transaction (its node is created).
     *
     * @param folder the transaction folder's path
     */
    default void transactionStarted(String folder) {
    }

    /**
     * A coordinator of this process read the decision of a transaction it started.
     *
     * @param folder the transaction folder's path
     * @param committed true for commit, false for abort
     * @param cause why, one of a fixed set: {@code all-voted-commit}, {@code vote-abort} (a participant voted
     *     abort), {@code deadline} (the deadline passed with votes missing), {@code other} (a decision not
     *     written by Baton)
     * @param nanos from just before the transaction's node was created to the decision being read
     */
    default void transactionDecided(String folder, boolean committed, String cause, long nanos) {
    }

    /**
     * A participant of this process prepared a transaction: its handler's prepare returned (or threw, an abort vote).
     *
     * @param folder the transaction folder's path
     * @param votedCommit the vote prepare gave
     * @param nanos how long prepare ran
     */
    default void transactionPrepared(String folder, boolean votedCommit, long nanos) {
    }

    /**
     * A participant of this process told its handler a transaction's decision.
     *
     * @param folder the transaction folder's path
     * @param committed true if told commit, false if told abort
     * @param handled whether the handler's commit or abort returned normally (false: it threw, and the participant's
     *     next incarnation is told again)
     */
    default void transactionTold(String folder, boolean committed, boolean handled) {
    }
}
