package dev.baton.recipes.election;

import dev.baton.test.history.LeadershipHistory;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Two contenders "a" and "b" whose terms go into one {@link LeadershipHistory}, where "a" steps
 * down slowly on purpose: its step-down waits (at most {@link #WAIT_FOR_SUCCESSOR}) for "b" to be
 * elected, which must not happen while it runs. A recipe that lets the session end before "a"
 * stepped down shows two leaders in the history; a machine too slow to elect within the wait lets
 * such a test pass, never fail, wrongly.
 */
final class SlowStepDown {
    static final Duration WAIT_FOR_SUCCESSOR = Duration.ofSeconds(2);

    final LeadershipHistory history = new LeadershipHistory();
    /** Counted down when "a" leads (a selector's turn began). */
    final CountDownLatch aLeads = new CountDownLatch(1);
    /** Counted down when "a" starts stepping down. */
    final CountDownLatch aSteppingDown = new CountDownLatch(1);
    private final CountDownLatch successorElected = new CountDownLatch(1);

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
