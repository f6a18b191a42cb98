package dev.baton.recipes.election;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.test.TestClients;
import dev.baton.test.history.LeadershipHistory;
import java.io.Closeable;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Two contenders "a" and "b" whose terms go into one {@link LeadershipHistory}, where "a" steps
 * down slowly on purpose: its step-down waits (at most {@link #WAIT_FOR_SUCCESSOR}) for "b" to be
 * elected, which must not happen while it runs. A recipe that lets the session end before "a"
 * stepped down shows two leaders in the history; a machine too slow to elect within the wait lets
 * such a test pass, never fail, wrongly. {@link #latches} and {@link #selectors} set the two up:
 * "a" leading on a client of its own, "b" waiting behind it.
 */
final class SlowStepDown {
    static final Duration WAIT_FOR_SUCCESSOR = Duration.ofSeconds(2);
    private static final Duration WAIT = Duration.ofSeconds(20);

    final LeadershipHistory history = new LeadershipHistory();
    /** Counted down when "a" leads (a selector's turn began). */
    final CountDownLatch aLeads = new CountDownLatch(1);
    /** Counted down when "a" starts stepping down. */
    final CountDownLatch aSteppingDown = new CountDownLatch(1);
    private final CountDownLatch successorElected = new CountDownLatch(1);

    /**
     * "a"'s recipe ({@code first}) leading on client {@code a}, made for it, and "b"'s ({@code second})
     * waiting behind it; each test closes them in the order it tests, and {@link #close()} closes
     * whatever is left (closing again is harmless).
     */
    record Contenders<R extends Closeable>(BatonClient a, R first, R second) implements AutoCloseable {
        @Override
        public void close() throws Exception {
            second.close();
            first.close();
            a.close();
        }
    }

    /** Latches: "a"'s leads on a new client of {@code connect}; "b"'s, on {@code b}, waits behind it. */
    Contenders<LeaderLatch> latches(String connect, BatonClient b, String path) throws InterruptedException {
        BatonClient a = TestClients.started(connect, Duration.ofSeconds(10));
        LeaderLatch first = new LeaderLatch(a, path, "a");
        first.addListener(latchA());
        first.start();
        assertThat(first.await(WAIT)).as("a leads").isTrue();
        LeaderLatch second = new LeaderLatch(b, path, "b");
        second.addListener(latchB());
        second.start();
        await("b waits behind a").atMost(WAIT).until(() -> second.getParticipants().size() == 2);
        return new Contenders<>(a, first, second);
    }

    /** Selectors: "a"'s takes leadership on a new client of {@code connect}; "b"'s, on {@code b}, waits behind it. */
    Contenders<LeaderSelector> selectors(String connect, BatonClient b, String path) throws InterruptedException {
        BatonClient a = TestClients.started(connect, Duration.ofSeconds(10));
        LeaderSelector first = new LeaderSelector(a, path, "a", selectorA());
        first.start();
        assertThat(aLeads.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)).as("a leads").isTrue();
        LeaderSelector second = new LeaderSelector(b, path, "b", selectorB());
        second.start();
        await("b waits behind a").atMost(WAIT).until(() -> second.getParticipants().size() == 2);
        return new Contenders<>(a, first, second);
    }

    /** "a"'s latch listener: records its term, and steps down slowly. */
    LeaderLatchListener latchA() {
        return LeaderLatchListener.of(token -> {
            history.granted("a", token);
            aLeads.countDown();
        }, this::stepDownSlowly);
    }

    /** "b"'s latch listener: records its term. */
    LeaderLatchListener latchB() {
        return LeaderLatchListener.of(this::bGranted, () -> history.ended("b"));
    }

    /** "a"'s selector listener: records its term, leads until interrupted, then steps down slowly. */
    LeaderSelectorListener selectorA() {
        return LeaderSelectorListener.withToken((client, token) -> {
            history.granted("a", token);
            aLeads.countDown();
            try {
                new CountDownLatch(1).await(); // lead until interrupted
            } catch (InterruptedException e) {
                stepDownSlowly();
            }
        });
    }

    /** "b"'s selector listener: records its term and leads until interrupted. */
    LeaderSelectorListener selectorB() {
        return LeaderSelectorListener.withToken((client, token) -> {
            bGranted(token);
            try {
                new CountDownLatch(1).await();
            } finally {
                history.ended("b");
            }
        });
    }

    private void bGranted(long token) {
        history.granted("b", token);
        successorElected.countDown();
    }

    private void stepDownSlowly() {
        aSteppingDown.countDown();
        try {
            successorElected.await(WAIT_FOR_SUCCESSOR.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        history.ended("a");
    }
}
