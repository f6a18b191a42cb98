package dev.baton.framework.internal;

import dev.baton.framework.BatonException;
import dev.baton.framework.ClientClosedException;
import dev.baton.framework.ConnectionLossException;
import dev.baton.framework.Failures;
import dev.baton.framework.NoConnectionException;
import dev.baton.framework.OperationTimeoutException;
import dev.baton.framework.SessionExpiredException;
import dev.baton.framework.Timeouts;
import dev.baton.framework.retry.RetryPolicy;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooKeeper;

/**
 * The only retry loop in Baton, in a blocking and an asynchronous form.
 *
 * <p>Each attempt gets a connected handle (waiting up to the connection timeout), runs, and on a
 * recoverable failure (connection loss mid-flight, operation timeout, session moved) asks the
 * {@link RetryPolicy} whether and when to try again. The blocking form waits on the injected
 * {@link Clock}; the asynchronous form schedules the next attempt and parks no thread. Other
 * failures end the operation at once. The wait for a connection is itself the retry for "no
 * connection" (the policy is not asked again after it): when it runs out the operation has given up
 * as surely as when the policy says stop, and both are reported as {@link Events#gaveUp}. Attempts are numbered from 0, so an attempt can tell that an
 * earlier one may have reached the server (for protected creates and idempotent operations).
 *
 * <p>Every answer is "contact" ({@link HandleSource#contacted}); an answer to a write or a sync,
 * which the server forwarded to the ensemble's leader, is also told to the
 * {@link LeaderReplies} ({@link LeaderContact}), whose clock the holds end by.
 */
public final class RetryLoop {
    /** Operations a follower forwards to the leader: their success proves the route to the leader was open. */
    private static final Set<String> ANSWERED_BY_THE_LEADER = Set.of("create", "delete", "setData", "transaction", "sync");

    /** Told of every successful round trip the ensemble's leader answered. */
    @FunctionalInterface
    public interface LeaderReplies {
        void confirmed(long sessionId, long sentNanos, long repliedNanos);
    }

    /** Told of every attempt's end and every retry decision: the client's {@link Telemetry}. */
    public interface Events {
        /** Tells nobody. */
        Events NONE = new Events() {
            @Override
            public void answered(String operation, long nanos, boolean succeeded) {
            }

            @Override
            public void retrying(String operation) {
            }

            @Override
            public void gaveUp(String operation) {
            }
        };

        void answered(String operation, long nanos, boolean succeeded);

        void retrying(String operation);

        void gaveUp(String operation);
    }

    /** One blocking attempt on a connected handle. */
    @FunctionalInterface
    public interface Attempt<T> {
        T run(ZooKeeper zk, int attempt) throws KeeperException, InterruptedException;
    }

    /** One asynchronous attempt; its future fails with a {@link BatonException}. */
    @FunctionalInterface
    public interface AsyncAttempt<T> {
        CompletableFuture<T> run(ZooKeeper zk, int attempt);
    }

    private final RetryPolicy policy;
    private final Clock clock;
    private final HandleSource handles;
    private final ScheduledExecutorService scheduler;
    private final Executor async;
    private final LeaderReplies leaderReplies;
    private final Events events;
    /** Asynchronous runs waiting out a back-off on the scheduler: failed by {@link #close()}, which drops their timers. */
    private final Set<AsyncRun<?>> backingOff = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    public RetryLoop(RetryPolicy policy, Clock clock, HandleSource handles, ScheduledExecutorService scheduler, Executor async) {
        this(policy, clock, handles, scheduler, async, (session, sent, replied) -> { }, Events.NONE);
    }

    public RetryLoop(RetryPolicy policy, Clock clock, HandleSource handles, ScheduledExecutorService scheduler, Executor async,
                     LeaderReplies leaderReplies, Events events) {
        this.events = events;
        this.policy = policy;
        this.clock = clock;
        this.handles = handles;
        this.scheduler = scheduler;
        this.async = async;
        this.leaderReplies = leaderReplies;
    }

    public RetryPolicy policy() {
        return policy;
    }

    /**
     * The client closed: every asynchronous run waiting out a back-off fails with
     * {@link ClientClosedException} now, since the closed client's scheduler drops the timer that
     * would have resumed it (without this its future would never complete).
     */
    public void close() {
        closed = true;
        for (AsyncRun<?> run : backingOff) {
            run.clientClosed();
        }
    }

    /** Runs {@code attempt} until it succeeds, fails for good, or the policy gives up. */
    public <T> T call(String operation, String path, Attempt<T> attempt) throws InterruptedException {
        long start = clock.nanoTime();
        for (int n = 0; ; n++) {
            ZooKeeper zk;
            try {
                zk = handles.awaitConnected(operation, path);
            } catch (NoConnectionException e) {
                events.gaveUp(operation);
                throw e;
            }
            long sent = clock.nanoTime();
            BatonException failure;
            try {
                T result = attempt.run(zk, n);
                answered(operation, zk, sent);
                events.answered(operation, clock.nanoTime() - sent, true);
                return result;
            } catch (KeeperException e) {
                failure = Errors.translate(e, operation, path);
            } catch (BatonException e) {
                failure = e;
            }
            noteContact(failure, sent);
            events.answered(operation, clock.nanoTime() - sent, false);
            Optional<Duration> wait = decide(operation, n + 1, start, failure);
            if (wait.isEmpty()) {
                throw failure;
            }
            clock.sleep(wait.get());
        }
    }

    /**
     * Runs {@code attempt} asynchronously with the same rules. Cancelling the returned future stops
     * further attempts (one already sent still reaches the server).
     */
    public <T> CompletableFuture<T> callAsync(String operation, String path, AsyncAttempt<T> attempt) {
        CompletableFuture<T> result = new CompletableFuture<>();
        new AsyncRun<>(operation, path, attempt, result, clock.nanoTime()).next(0);
        return result;
    }

    private void answered(String operation, ZooKeeper zk, long sent) {
        handles.contacted(sent);
        // a later attempt of a protected create that finds its node syncs before it looks (CreateOp)
        if (ANSWERED_BY_THE_LEADER.contains(operation)) {
            leaderReplies.confirmed(zk.getSessionId(), sent, clock.nanoTime());
        }
    }

    private Optional<Duration> decide(String operation, int retryCount, long start, BatonException failure) {
        if (!Errors.isRetryable(failure)) {
            return Optional.empty();
        }
        Optional<Duration> wait = policy.retryAfter(retryCount, Duration.ofNanos(clock.nanoTime() - start), failure);
        if (wait.isPresent()) {
            events.retrying(operation);
        } else {
            events.gaveUp(operation);
        }
        return wait;
    }

    /** A failure the server answered with (no node, bad version, ...) still proves the session was alive. */
    private void noteContact(BatonException failure, long sent) {
        if (failure.code() != null && !(failure instanceof ConnectionLossException)
            && !(failure instanceof OperationTimeoutException) && !(failure instanceof SessionExpiredException)) {
            handles.contacted(sent);
        }
    }

    private final class AsyncRun<T> {
        private final String operation;
        private final String path;
        private final AsyncAttempt<T> attempt;
        private final CompletableFuture<T> result;
        private final long start;

        AsyncRun(String operation, String path, AsyncAttempt<T> attempt, CompletableFuture<T> result, long start) {
            this.operation = operation;
            this.path = path;
            this.attempt = attempt;
            this.result = result;
            this.start = start;
        }

        void next(int n) {
            if (result.isDone()) {
                return;
            }
            handles.whenConnected(operation, path).whenComplete((zk, connectFailure) -> {
                if (connectFailure != null) {
                    Throwable cause = Failures.unwrap(connectFailure);
                    if (cause instanceof NoConnectionException) {
                        events.gaveUp(operation);
                    }
                    result.completeExceptionally(cause);
                    return;
                }
                if (result.isDone()) {
                    return;
                }
                long sent = clock.nanoTime();
                CompletableFuture<T> running;
                try {
                    running = attempt.run(zk, n);
                } catch (RuntimeException e) {
                    result.completeExceptionally(e);
                    return;
                }
                running.whenComplete((value, error) -> finished(n, zk, sent, value, error));
            });
        }

        private void finished(int n, ZooKeeper zk, long sent, T value, Throwable error) {
            if (error == null) {
                answered(operation, zk, sent);
                events.answered(operation, clock.nanoTime() - sent, true);
                result.complete(value);
                return;
            }
            Throwable cause = Failures.unwrap(error);
            if (!(cause instanceof BatonException failure)) {
                result.completeExceptionally(cause);
                return;
            }
            noteContact(failure, sent);
            events.answered(operation, clock.nanoTime() - sent, false);
            Optional<Duration> wait = decide(operation, n + 1, start, failure);
            if (wait.isEmpty() || result.isDone()) {
                result.completeExceptionally(failure);
                return;
            }
            long nanos = Timeouts.nanos(wait.get());
            if (nanos <= 0) {
                resume(n + 1);
                return;
            }
            backingOff.add(this);
            try {
                scheduler.schedule(() -> {
                    backingOff.remove(this);
                    resume(n + 1);
                }, nanos, TimeUnit.NANOSECONDS);
            } catch (RejectedExecutionException e) {
                clientClosed();
                return;
            }
            if (closed) {
                clientClosed(); // closed between the check-in and the timer: close() may have missed it
            }
        }

        /** The next attempt on the async executor; a closed client's executor refuses it. */
        private void resume(int n) {
            try {
                async.execute(() -> next(n));
            } catch (RejectedExecutionException e) {
                clientClosed();
            }
        }

        void clientClosed() {
            backingOff.remove(this);
            result.completeExceptionally(new ClientClosedException(operation, path));
        }
    }
}
