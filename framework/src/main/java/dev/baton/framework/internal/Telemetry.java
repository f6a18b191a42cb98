package dev.baton.framework.internal;

import dev.baton.framework.BatonObserver;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLongArray;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A client's observers and what its health needs counted: the retry loop's {@link RetryLoop.Events}.
 *
 * <p>{@link #observer()} is {@link BatonObserver#NONE} while nobody observes, the one observer
 * itself when there is one (so the common case adds no indirection), and a fan-out that isolates
 * failures when there are more. Every observer is wrapped in {@link Guarded} when added, so one
 * that throws is logged and cannot break the recipe or the retry loop that reported to it.
 *
 * <p>Retries are counted per second in a ring of 60 buckets, each stamped with its second; a
 * bucket from an older minute counts as empty. Reads and writes race harmlessly (a retry may land
 * in a bucket being reset and be lost from the count): it is a health figure, not a ledger.
 */
public final class Telemetry implements RetryLoop.Events {
    private static final Logger LOG = LoggerFactory.getLogger(Telemetry.class);
    private static final int SECONDS = 60;

    private final List<BatonObserver> observers = new CopyOnWriteArrayList<>();
    private final Clock clock;
    private final AtomicLongArray counts = new AtomicLongArray(SECONDS);
    private final AtomicLongArray stamps = new AtomicLongArray(SECONDS);
    private volatile BatonObserver current = BatonObserver.NONE;

    public Telemetry(Clock clock) {
        this.clock = clock;
        for (int i = 0; i < SECONDS; i++) {
            stamps.set(i, Long.MIN_VALUE);
        }
    }

    public BatonObserver observer() {
        return current;
    }

    public synchronized void add(BatonObserver observer) {
        observers.add(new Guarded(Objects.requireNonNull(observer, "observer")));
        publish();
    }

    public synchronized void remove(BatonObserver observer) {
        observers.removeIf(g -> ((Guarded) g).target == observer);
        publish();
    }

    private void publish() {
        current = switch (observers.size()) {
            case 0 -> BatonObserver.NONE;
            case 1 -> observers.get(0);
            default -> new FanOut(List.copyOf(observers));
        };
    }

    @Override
    public void answered(String operation, long nanos, boolean succeeded) {
        current.requestCompleted(operation, nanos, succeeded);
    }

    @Override
    public void retrying(String operation) {
        long second = Math.floorDiv(clock.nanoTime(), 1_000_000_000L);
        int i = (int) Math.floorMod(second, (long) SECONDS);
        if (stamps.get(i) != second) {
            stamps.set(i, second);
            counts.set(i, 0);
        }
        counts.incrementAndGet(i);
        current.retrying(operation);
    }

    @Override
    public void gaveUp(String operation) {
        current.retriesExhausted(operation);
    }

    /** Retries counted in the last 60 seconds (the current second included). */
    public int retriesLastMinute() {
        long now = Math.floorDiv(clock.nanoTime(), 1_000_000_000L);
        long sum = 0;
        for (int i = 0; i < SECONDS; i++) {
            if (now - stamps.get(i) < SECONDS) {
                sum += counts.get(i);
            }
        }
        return (int) Math.min(Integer.MAX_VALUE, sum);
    }

    /** Runs each event of one observer, logging what it throws, so an observer cannot break a recipe. */
    private static final class Guarded implements BatonObserver {
        final BatonObserver target;

        Guarded(BatonObserver target) {
            this.target = target;
        }

        private void failed(RuntimeException e) {
            LOG.warn("observer {} threw; the event is skipped", target, e);
        }

        @Override
        public void requestCompleted(String operation, long nanos, boolean succeeded) {
            try { target.requestCompleted(operation, nanos, succeeded); } catch (RuntimeException e) { failed(e); }
        }

        @Override
        public void retrying(String operation) {
            try { target.retrying(operation); } catch (RuntimeException e) { failed(e); }
        }

        @Override
        public void retriesExhausted(String operation) {
            try { target.retriesExhausted(operation); } catch (RuntimeException e) { failed(e); }
        }

        @Override
        public void clientClosed() {
            try { target.clientClosed(); } catch (RuntimeException e) { failed(e); }
        }

        @Override
        public void acquireStarted(String recipe, String path) {
            try { target.acquireStarted(recipe, path); } catch (RuntimeException e) { failed(e); }
        }

        @Override
        public void acquireFinished(String recipe, String path, AcquireOutcome outcome, long waitNanos) {
            try { target.acquireFinished(recipe, path, outcome, waitNanos); } catch (RuntimeException e) { failed(e); }
        }

        @Override
        public void holdEnded(String recipe, String path, long heldNanos) {
            try { target.holdEnded(recipe, path, heldNanos); } catch (RuntimeException e) { failed(e); }
        }

        @Override
        public void holdLost(String recipe, String path) {
            try { target.holdLost(recipe, path); } catch (RuntimeException e) { failed(e); }
        }

        @Override
        public void leadershipGained(String recipe, String path) {
            try { target.leadershipGained(recipe, path); } catch (RuntimeException e) { failed(e); }
        }

        @Override
        public void leadershipEnded(String recipe, String path, long ledNanos, boolean lost) {
            try { target.leadershipEnded(recipe, path, ledNanos, lost); } catch (RuntimeException e) { failed(e); }
        }

        @Override
        public void electionLeaderSeen(String path, boolean hasLeader) {
            try { target.electionLeaderSeen(path, hasLeader); } catch (RuntimeException e) { failed(e); }
        }

        @Override
        public void barrierWaitStarted(String recipe, String path) {
            try { target.barrierWaitStarted(recipe, path); } catch (RuntimeException e) { failed(e); }
        }

        @Override
        public void barrierWaitFinished(String recipe, String path, WaitOutcome outcome, long waitNanos) {
            try { target.barrierWaitFinished(recipe, path, outcome, waitNanos); } catch (RuntimeException e) { failed(e); }
        }

        @Override
        public void queueItemsPut(String path, int count) {
            try { target.queueItemsPut(path, count); } catch (RuntimeException e) { failed(e); }
        }

        @Override
        public void queueItemsTaken(String path, int count) {
            try { target.queueItemsTaken(path, count); } catch (RuntimeException e) { failed(e); }
        }

        @Override
        public void queueTakeWaited(String path, long waitNanos, boolean gotItems) {
            try { target.queueTakeWaited(path, waitNanos, gotItems); } catch (RuntimeException e) { failed(e); }
        }

        @Override
        public void queueItemsDeadLettered(String path, int count) {
            try { target.queueItemsDeadLettered(path, count); } catch (RuntimeException e) { failed(e); }
        }

        @Override
        public void queueDepthSeen(String path, long depth) {
            try { target.queueDepthSeen(path, depth); } catch (RuntimeException e) { failed(e); }
        }

        @Override
        public void serviceInstancesSeen(String service, int count) {
            try { target.serviceInstancesSeen(service, count); } catch (RuntimeException e) { failed(e); }
        }

        @Override
        public void instancePicked(String service, String strategy, boolean found) {
            try { target.instancePicked(service, strategy, found); } catch (RuntimeException e) { failed(e); }
        }

        @Override
        public void instanceMarkedDown(String service) {
            try { target.instanceMarkedDown(service); } catch (RuntimeException e) { failed(e); }
        }

        @Override
        public void configChangeSeen(String recipe, String path) {
            try { target.configChangeSeen(recipe, path); } catch (RuntimeException e) { failed(e); }
        }

        @Override
        public void configWritten(String recipe, String path, boolean succeeded) {
            try { target.configWritten(recipe, path, succeeded); } catch (RuntimeException e) { failed(e); }
        }

        @Override
        public void configReleaseSeen(String recipe, String path, long release, Optional<Duration> sinceCommitted) {
            try { target.configReleaseSeen(recipe, path, release, sinceCommitted); } catch (RuntimeException e) { failed(e); }
        }

        @Override
        public void groupMembersSeen(String path, int members) {
            try { target.groupMembersSeen(path, members); } catch (RuntimeException e) { failed(e); }
        }

        @Override
        public void transactionStarted(String folder) {
            try { target.transactionStarted(folder); } catch (RuntimeException e) { failed(e); }
        }

        @Override
        public void transactionDecided(String folder, boolean committed, String cause, long nanos) {
            try { target.transactionDecided(folder, committed, cause, nanos); } catch (RuntimeException e) { failed(e); }
        }

        @Override
        public void transactionPrepared(String folder, boolean votedCommit, long nanos) {
            try { target.transactionPrepared(folder, votedCommit, nanos); } catch (RuntimeException e) { failed(e); }
        }

        @Override
        public void transactionTold(String folder, boolean committed, boolean handled) {
            try { target.transactionTold(folder, committed, handled); } catch (RuntimeException e) { failed(e); }
        }
    }

    /** Several observers, each already guarded, told in the order they were added. */
    private record FanOut(List<BatonObserver> all) implements BatonObserver {
        @Override
        public void requestCompleted(String operation, long nanos, boolean succeeded) {
            all.forEach(o -> o.requestCompleted(operation, nanos, succeeded));
        }

        @Override
        public void retrying(String operation) {
            all.forEach(o -> o.retrying(operation));
        }

        @Override
        public void retriesExhausted(String operation) {
            all.forEach(o -> o.retriesExhausted(operation));
        }

        @Override
        public void clientClosed() {
            all.forEach(BatonObserver::clientClosed);
        }

        @Override
        public void acquireStarted(String recipe, String path) {
            all.forEach(o -> o.acquireStarted(recipe, path));
        }

        @Override
        public void acquireFinished(String recipe, String path, AcquireOutcome outcome, long waitNanos) {
            all.forEach(o -> o.acquireFinished(recipe, path, outcome, waitNanos));
        }

        @Override
        public void holdEnded(String recipe, String path, long heldNanos) {
            all.forEach(o -> o.holdEnded(recipe, path, heldNanos));
        }

        @Override
        public void holdLost(String recipe, String path) {
            all.forEach(o -> o.holdLost(recipe, path));
        }

        @Override
        public void leadershipGained(String recipe, String path) {
            all.forEach(o -> o.leadershipGained(recipe, path));
        }

        @Override
        public void leadershipEnded(String recipe, String path, long ledNanos, boolean lost) {
            all.forEach(o -> o.leadershipEnded(recipe, path, ledNanos, lost));
        }

        @Override
        public void electionLeaderSeen(String path, boolean hasLeader) {
            all.forEach(o -> o.electionLeaderSeen(path, hasLeader));
        }

        @Override
        public void barrierWaitStarted(String recipe, String path) {
            all.forEach(o -> o.barrierWaitStarted(recipe, path));
        }

        @Override
        public void barrierWaitFinished(String recipe, String path, WaitOutcome outcome, long waitNanos) {
            all.forEach(o -> o.barrierWaitFinished(recipe, path, outcome, waitNanos));
        }

        @Override
        public void queueItemsPut(String path, int count) {
            all.forEach(o -> o.queueItemsPut(path, count));
        }

        @Override
        public void queueItemsTaken(String path, int count) {
            all.forEach(o -> o.queueItemsTaken(path, count));
        }

        @Override
        public void queueTakeWaited(String path, long waitNanos, boolean gotItems) {
            all.forEach(o -> o.queueTakeWaited(path, waitNanos, gotItems));
        }

        @Override
        public void queueItemsDeadLettered(String path, int count) {
            all.forEach(o -> o.queueItemsDeadLettered(path, count));
        }

        @Override
        public void queueDepthSeen(String path, long depth) {
            all.forEach(o -> o.queueDepthSeen(path, depth));
        }

        @Override
        public void serviceInstancesSeen(String service, int count) {
            all.forEach(o -> o.serviceInstancesSeen(service, count));
        }

        @Override
        public void instancePicked(String service, String strategy, boolean found) {
            all.forEach(o -> o.instancePicked(service, strategy, found));
        }

        @Override
        public void instanceMarkedDown(String service) {
            all.forEach(o -> o.instanceMarkedDown(service));
        }

        @Override
        public void configChangeSeen(String recipe, String path) {
            all.forEach(o -> o.configChangeSeen(recipe, path));
        }

        @Override
        public void configWritten(String recipe, String path, boolean succeeded) {
            all.forEach(o -> o.configWritten(recipe, path, succeeded));
        }

        @Override
        public void configReleaseSeen(String recipe, String path, long release, Optional<Duration> sinceCommitted) {
            all.forEach(o -> o.configReleaseSeen(recipe, path, release, sinceCommitted));
        }

        @Override
        public void groupMembersSeen(String path, int members) {
            all.forEach(o -> o.groupMembersSeen(path, members));
        }

        @Override
        public void transactionStarted(String folder) {
            all.forEach(o -> o.transactionStarted(folder));
        }

        @Override
        public void transactionDecided(String folder, boolean committed, String cause, long nanos) {
            all.forEach(o -> o.transactionDecided(folder, committed, cause, nanos));
        }

        @Override
        public void transactionPrepared(String folder, boolean votedCommit, long nanos) {
            all.forEach(o -> o.transactionPrepared(folder, votedCommit, nanos));
        }

        @Override
        public void transactionTold(String folder, boolean committed, boolean handled) {
            all.forEach(o -> o.transactionTold(folder, committed, handled));
        }
    }
}
