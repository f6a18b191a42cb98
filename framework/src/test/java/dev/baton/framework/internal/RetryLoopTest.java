package dev.baton.framework.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.framework.BadVersionException;
import dev.baton.framework.ClientClosedException;
import dev.baton.framework.ConnectionLossException;
import dev.baton.framework.NoConnectionException;
import dev.baton.framework.NoNodeException;
import dev.baton.framework.SessionExpiredException;
import dev.baton.framework.retry.RetryNTimes;
import dev.baton.framework.retry.RetryPolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The retry loop on a fake clock, with a fake connection: no server, no real waiting. */
class RetryLoopTest {
    private final FakeClock clock = new FakeClock();
    private final FakeHandles handles = new FakeHandles();
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();

    @AfterEach
    void stop() {
        scheduler.shutdownNow();
    }

    private RetryLoop loop(RetryPolicy policy) {
        return new RetryLoop(policy, clock, handles, scheduler, Runnable::run);
    }

    @Test
    void retriesConnectionLossAsThePolicySaysAndSleepsOnlyOnTheClock() throws Exception {
        AtomicInteger attempts = new AtomicInteger();
        String result = loop(new RetryNTimes(3, Duration.ofMillis(250))).call("getData", "/x", (zk, n) -> {
            assertThat(n).isEqualTo(attempts.getAndIncrement());
            if (n < 2) {
                throw new KeeperException.ConnectionLossException();
            }
            return "ok";
        });
        assertThat(result).isEqualTo("ok");
        assertThat(attempts).hasValue(3);
        assertThat(clock.sleeps).containsExactly(Duration.ofMillis(250), Duration.ofMillis(250));
    }

    @Test
    void givesUpWhenThePolicyDoesAndThrowsTheTypedFailure() {
        AtomicInteger attempts = new AtomicInteger();
        assertThatThrownBy(() -> loop(new RetryNTimes(2, Duration.ofMillis(10))).call("setData", "/x", (zk, n) -> {
            attempts.incrementAndGet();
            throw new KeeperException.OperationTimeoutException();
        })).isInstanceOf(dev.baton.framework.OperationTimeoutException.class).hasMessage("setData /x: operation timed out");
        assertThat(attempts).hasValue(3);
    }

    @Test
    void neverRetriesFailuresThatCannotHeal() {
        for (KeeperException failure : List.of(new KeeperException.NoNodeException(), new KeeperException.BadVersionException(),
            new KeeperException.SessionExpiredException())) {
            AtomicInteger attempts = new AtomicInteger();
            assertThatThrownBy(() -> loop(new RetryNTimes(5, Duration.ZERO)).call("delete", "/x", (zk, n) -> {
                attempts.incrementAndGet();
                throw failure;
            })).isInstanceOfAny(NoNodeException.class, BadVersionException.class, SessionExpiredException.class);
            assertThat(attempts).as("attempts after %s", failure.code()).hasValue(1);
        }
        assertThat(clock.sleeps).isEmpty();
    }

    @Test
    void noConnectionWithinTheTimeoutIsNotRetried() {
        handles.connected = false;
        assertThatThrownBy(() -> loop(new RetryNTimes(5, Duration.ZERO)).call("getData", "/x", (zk, n) -> "never"))
            .isInstanceOf(ConnectionLossException.class)
            .hasMessageContaining("no connection to the ensemble within");
        assertThat(handles.waits).hasValue(1);
    }

    @Test
    void passesElapsedTimeFromTheFirstAttemptToThePolicy() throws Exception {
        List<Duration> seen = new ArrayList<>();
        RetryPolicy recording = (retry, elapsed, cause) -> {
            seen.add(elapsed);
            return retry <= 2 ? java.util.Optional.of(Duration.ofSeconds(1)) : java.util.Optional.empty();
        };
        assertThatThrownBy(() -> loop(recording).call("create", "/x", (zk, n) -> {
            clock.now += TimeUnit.MILLISECONDS.toNanos(100);
            throw new KeeperException.ConnectionLossException();
        })).isInstanceOf(ConnectionLossException.class);
        assertThat(seen).containsExactly(Duration.ofMillis(100), Duration.ofMillis(1200), Duration.ofMillis(2300));
    }

    @Test
    void asyncFormRetriesTheSameWayWithoutBlockingAThread() throws Exception {
        AtomicInteger attempts = new AtomicInteger();
        CompletableFuture<String> result = loop(new RetryNTimes(3, Duration.ofMillis(1))).callAsync("getData", "/x", (zk, n) -> {
            attempts.incrementAndGet();
            return n < 3
                ? CompletableFuture.failedFuture(new ConnectionLossException("getData", "/x", null))
                : CompletableFuture.completedFuture("done");
        });
        assertThat(result.get(10, TimeUnit.SECONDS)).isEqualTo("done");
        assertThat(attempts).hasValue(4);
        assertThat(clock.sleeps).as("the async form schedules, it does not sleep").isEmpty();
    }

    @Test
    void asyncFormStopsRetryingOnceCancelled() throws Exception {
        AtomicInteger attempts = new AtomicInteger();
        CompletableFuture<Object> started = new CompletableFuture<>();
        CompletableFuture<String> result = loop(new RetryNTimes(1000, Duration.ofMillis(20))).callAsync("getData", "/x", (zk, n) -> {
            attempts.incrementAndGet();
            started.complete(null);
            return CompletableFuture.failedFuture(new ConnectionLossException("getData", "/x", null));
        });
        started.get(10, TimeUnit.SECONDS);
        result.cancel(false);
        int atCancel = attempts.get();
        // one more attempt may already be scheduled; after that, nothing
        org.awaitility.Awaitility.await().during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(2))
            .until(() -> attempts.get() <= atCancel + 1);
    }

    @Test
    void anAsyncRunWaitingOutABackOffFailsWithClientClosedWhenTheLoopCloses() throws Exception {
        AtomicInteger attempts = new AtomicInteger();
        RetryLoop loop = loop(new RetryNTimes(10, Duration.ofHours(1)));
        CompletableFuture<String> result = loop.callAsync("getData", "/x", (zk, n) -> {
            attempts.incrementAndGet();
            return CompletableFuture.failedFuture(new ConnectionLossException("getData", "/x", null));
        });
        assertThat(attempts).as("one attempt, then an hour's back-off").hasValue(1);
        assertThat(result).isNotDone();

        loop.close(); // what the client does as it drops its scheduler's timers

        assertThatThrownBy(() -> result.get(5, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
            .hasCauseInstanceOf(ClientClosedException.class);
        assertThat(attempts).hasValue(1);
    }

    @Test
    void anAsyncRunWhoseBackOffTheClosedSchedulerRefusesFailsWithClientClosed() throws Exception {
        scheduler.shutdownNow(); // a closed client's scheduler refuses new timers
        CompletableFuture<String> result = loop(new RetryNTimes(10, Duration.ofMillis(50))).callAsync("getData", "/x",
            (zk, n) -> CompletableFuture.failedFuture(new ConnectionLossException("getData", "/x", null)));

        assertThatThrownBy(() -> result.get(5, TimeUnit.SECONDS)).as("the run ends instead of waiting for a timer that never comes")
            .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(ClientClosedException.class);
    }

    /** A clock whose time moves only when told; sleeping just records. */
    static final class FakeClock implements Clock {
        long now = 1_000_000_000L;
        final List<Duration> sleeps = new ArrayList<>();

        @Override
        public long nanoTime() {
            return now;
        }

        @Override
        public void sleep(Duration duration) {
            sleeps.add(duration);
            now += duration.toNanos();
        }
    }

    /** A connection that is up (handing out a null handle the attempts ignore) or never comes. */
    static final class FakeHandles implements HandleSource {
        volatile boolean connected = true;
        final AtomicInteger waits = new AtomicInteger();

        @Override
        public ZooKeeper awaitConnected(String operation, String path) {
            if (!connected) {
                waits.incrementAndGet();
                throw new NoConnectionException(operation, path, Duration.ofSeconds(15));
            }
            return null;
        }

        @Override
        public CompletableFuture<ZooKeeper> whenConnected(String operation, String path) {
            return connected
                ? CompletableFuture.completedFuture(null)
                : CompletableFuture.failedFuture(new NoConnectionException(operation, path, Duration.ofSeconds(15)));
        }

        @Override
        public void contacted(long sentNanos) {
        }
    }
}
