package dev.baton.framework.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.framework.BatonObserver;
import dev.baton.framework.ConnectionLossException;
import dev.baton.framework.retry.RetryNTimes;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.apache.zookeeper.KeeperException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The retry loop's reports to a client's observers, and the retry count health shows, on a fake clock. */
class TelemetryTest {
    private final RetryLoopTest.FakeClock clock = new RetryLoopTest.FakeClock();
    private final Telemetry telemetry = new Telemetry(clock);
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();

    @AfterEach
    void stop() {
        scheduler.shutdownNow();
    }

    private RetryLoop loop(int retries) {
        return new RetryLoop(new RetryNTimes(retries, Duration.ofMillis(100)), clock, new RetryLoopTest.FakeHandles(), scheduler,
            Runnable::run, (session, sent, replied) -> { }, telemetry);
    }

    /** Writes down every event it hears. */
    static final class Recorder implements BatonObserver {
        final List<String> events = new CopyOnWriteArrayList<>();

        @Override
        public void requestCompleted(String operation, long nanos, boolean succeeded) {
            events.add(operation + (succeeded ? " ok" : " failed"));
        }

        @Override
        public void retrying(String operation) {
            events.add(operation + " retry");
        }

        @Override
        public void retriesExhausted(String operation) {
            events.add(operation + " gave up");
        }
    }

    private static String flaky(int failures, int attempt) throws KeeperException {
        if (attempt < failures) {
            throw new KeeperException.ConnectionLossException();
        }
        return "ok";
    }

    @Test
    void noObserverMeansTheEmptyOne() {
        assertThat(telemetry.observer()).isSameAs(BatonObserver.NONE);
        Recorder recorder = new Recorder();
        telemetry.add(recorder);
        assertThat(telemetry.observer()).isNotSameAs(BatonObserver.NONE);
        telemetry.remove(recorder);
        assertThat(telemetry.observer()).isSameAs(BatonObserver.NONE);
    }

    @Test
    void attemptsAndRetriesAreReportedAndRetriesCountForAMinute() throws Exception {
        Recorder recorder = new Recorder();
        telemetry.add(recorder);
        String result = loop(3).call("getData", "/x", (zk, n) -> flaky(2, n));
        assertThat(result).isEqualTo("ok");
        assertThat(recorder.events).containsExactly("getData failed", "getData retry", "getData failed", "getData retry", "getData ok");
        assertThat(telemetry.retriesLastMinute()).isEqualTo(2);

        clock.now += Duration.ofSeconds(59).toNanos();
        assertThat(telemetry.retriesLastMinute()).as("59 s later").isEqualTo(2);
        clock.now += Duration.ofSeconds(2).toNanos();
        assertThat(telemetry.retriesLastMinute()).as("61 s later").isZero();
    }

    @Test
    void aPolicyThatGivesUpIsReported() {
        Recorder recorder = new Recorder();
        telemetry.add(recorder);
        assertThatThrownBy(() -> loop(1).call("setData", "/x", (zk, n) -> flaky(5, n))).isInstanceOf(ConnectionLossException.class);
        assertThat(recorder.events).containsExactly("setData failed", "setData retry", "setData failed", "setData gave up");
    }

    @Test
    void anObserverThatThrowsDoesNotBreakTheOperationNorTheOtherObservers() throws Exception {
        telemetry.add(new BatonObserver() {
            @Override
            public void requestCompleted(String operation, long nanos, boolean succeeded) {
                throw new IllegalStateException("broken observer");
            }
        });
        Recorder recorder = new Recorder();
        telemetry.add(recorder);
        String result = loop(3).call("getData", "/x", (zk, n) -> flaky(0, n));
        assertThat(result).isEqualTo("ok");
        assertThat(recorder.events).containsExactly("getData ok");
    }

    @Test
    void theGuardAndTheFanOutPassOnEveryEventAnObserverCanHear() {
        // an event they do not override falls to the interface's empty default and never reaches an observer
        List<String> events = java.util.Arrays.stream(BatonObserver.class.getMethods())
            .filter(m -> m.isDefault()).map(m -> m.getName() + java.util.Arrays.toString(m.getParameterTypes())).sorted().toList();
        for (Class<?> nested : Telemetry.class.getDeclaredClasses()) {
            if (BatonObserver.class.isAssignableFrom(nested)) {
                List<String> passed = java.util.Arrays.stream(nested.getDeclaredMethods())
                    .map(m -> m.getName() + java.util.Arrays.toString(m.getParameterTypes())).toList();
                assertThat(passed).as(nested.getSimpleName() + " passes on").containsAll(events);
            }
        }
        assertThat(events).as("the events, found").hasSizeGreaterThan(20);
    }
}
