package dev.baton.framework;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The one drain loop: order, one claimer at a time, a throwing call stops nothing. */
class SerialQueueTest {
    @Test
    void callsRunInOrderAndAThrowingOneDoesNotStopTheNext() {
        SerialQueue queue = new SerialQueue("test");
        List<Integer> ran = new ArrayList<>();
        queue.add(() -> ran.add(1));
        queue.add(() -> {
            throw new IllegalStateException("a listener's bug");
        });
        queue.add(() -> ran.add(3));

        assertThat(queue.claim()).isTrue();
        assertThat(queue.claim()).as("one drain at a time").isFalse();
        queue.drain();

        assertThat(ran).containsExactly(1, 3);
        assertThat(queue.isIdle()).isTrue();
        assertThat(queue.claim()).as("nothing queued: nothing to claim").isFalse();
    }

    @Test
    void aCallQueuedDuringTheDrainRunsInThatDrainOnItsThread() {
        SerialQueue queue = new SerialQueue("test");
        List<String> ran = new ArrayList<>();
        queue.add(() -> {
            assertThat(queue.isDraining()).isTrue();
            queue.add(() -> ran.add("later"));
            assertThat(queue.claim()).as("the running drain takes it").isFalse();
            ran.add("first");
        });
        assertThat(queue.claim()).isTrue();
        queue.drain();

        assertThat(ran).containsExactly("first", "later");
        assertThat(queue.isDraining()).isFalse();
    }

    @Test
    void anAbandonedDrainDropsTheQueueAndReleasesTheClaim() {
        SerialQueue queue = new SerialQueue("test");
        List<String> ran = new ArrayList<>();
        queue.add(() -> ran.add("dropped"));
        assertThat(queue.claim()).isTrue();

        queue.abandon();

        assertThat(queue.isIdle()).isTrue();
        queue.add(() -> ran.add("next"));
        assertThat(queue.claim()).isTrue();
        queue.drain();
        assertThat(ran).containsExactly("next");
    }
}
