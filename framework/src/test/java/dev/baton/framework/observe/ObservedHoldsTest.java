package dev.baton.framework.observe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.framework.BatonClient;
import dev.baton.framework.BatonObserver;
import dev.baton.framework.TransactionBuilder;
import dev.baton.framework.contention.Hold;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What a lock-like recipe's acquisitions report, without a server: a client that is never started, a fake hold. */
class ObservedHoldsTest {
    private final BatonClient client = BatonClient.builder().connectString("127.0.0.1:2181").build();
    private final List<String> events = new CopyOnWriteArrayList<>();
    private final BatonObserver recorder = new BatonObserver() {
        @Override
        public void acquireStarted(String recipe, String path) {
            events.add("started " + recipe + " " + path);
        }

        @Override
        public void acquireFinished(String recipe, String path, AcquireOutcome outcome, long waitNanos) {
            events.add(outcome.name());
        }

        @Override
        public void holdEnded(String recipe, String path, long heldNanos) {
            events.add("ended");
        }

        @Override
        public void holdLost(String recipe, String path) {
            events.add("lost");
        }
    };

    @AfterEach
    void close() {
        client.close();
    }

    /** A hold whose loss the test triggers. */
    static final class FakeHold implements Hold {
        final List<Runnable> onLost = new ArrayList<>();
        final AtomicInteger deletes = new AtomicInteger();

        void lose() {
            onLost.forEach(Runnable::run);
        }

        @Override
        public long fencingToken() {
            return 7;
        }

        @Override
        public List<String> nodes() {
            return List.of("/l/_c_x-lock-0000000001");
        }

        @Override
        public boolean isValid() {
            return true;
        }

        @Override
        public Optional<String> lossReason() {
            return Optional.empty();
        }

        @Override
        public void onLost(Runnable callback) {
            onLost.add(callback);
        }

        @Override
        public TransactionBuilder guard(TransactionBuilder transaction) {
            return transaction;
        }

        @Override
        public boolean connected() {
            return true;
        }

        @Override
        public CompletableFuture<Void> delete() {
            deletes.incrementAndGet();
            return CompletableFuture.completedFuture(null);
        }
    }

    @Test
    void withoutAnObserverTheAcquisitionIsHandedBackUntouched() throws Exception {
        CompletableFuture<Hold> acquiring = new CompletableFuture<>();
        assertThat(ObservedHolds.track(client, "mutex", "/l", acquiring)).isSameAs(acquiring);
        FakeHold hold = new FakeHold();
        assertThat(ObservedHolds.trackBlocking(client, "mutex", "/l", () -> hold)).isSameAs(hold);
        assertThat(hold.onLost).as("nothing registered on the hold").isEmpty();
    }

    @Test
    void anAcquiredHoldReportsItsEndOnceWhetherReleasedOrLost() throws Exception {
        client.addObserver(recorder);
        FakeHold released = new FakeHold();
        Hold wrapped = ObservedHolds.track(client, "mutex", "/l", CompletableFuture.completedFuture(released)).get();
        assertThat(wrapped.fencingToken()).isEqualTo(7);
        wrapped.delete();
        wrapped.delete();
        assertThat(released.deletes).hasValue(2);
        assertThat(events).containsExactly("started mutex /l", "ACQUIRED", "ended");

        events.clear();
        FakeHold lost = new FakeHold();
        Hold second = ObservedHolds.trackBlocking(client, "semaphore", "/s", () -> lost);
        lost.lose();
        second.delete();
        assertThat(events).containsExactly("started semaphore /s", "ACQUIRED", "lost", "ended");
    }

    @Test
    void timeoutsFailuresAndCancellationsAreOutcomes() throws Exception {
        client.addObserver(recorder);
        assertThat(ObservedHolds.track(client, "mutex", "/l", CompletableFuture.completedFuture(null)).get()).isNull();
        assertThat(ObservedHolds.trackBlocking(client, "mutex", "/l", () -> null)).isNull();
        assertThatThrownBy(() -> ObservedHolds.trackBlocking(client, "mutex", "/l", () -> {
            throw new InterruptedException("stop");
        })).isInstanceOf(InterruptedException.class);
        CompletableFuture<Hold> acquiring = new CompletableFuture<>();
        ObservedHolds.track(client, "mutex", "/l", acquiring).cancel(true);
        assertThat(acquiring).as("the cancel reaches the recipe's acquisition").isCancelled();
        assertThat(events).filteredOn(e -> !e.startsWith("started")).containsExactly("TIMED_OUT", "TIMED_OUT", "FAILED", "FAILED");
    }
}
