package dev.baton.framework;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** {@link ChangeSignal#addListener}: how an asynchronous wait hears a recipe's state change. */
class ChangeSignalListenerTest {
    @Test
    void aListenerHearsEveryBumpAfterTheSignalsLockIsReleasedUntilRemoved() throws Exception {
        ChangeSignal signal = new ChangeSignal();
        List<Long> heard = new CopyOnWriteArrayList<>();
        ExecutorService other = Executors.newSingleThreadExecutor();
        try {
            // another thread reads the generation, which takes the signal's lock: it could not while bump() held it
            Runnable listener = () -> {
                try {
                    heard.add(other.submit(signal::generation).get(5, TimeUnit.SECONDS));
                } catch (Exception e) {
                    throw new AssertionError("the listener ran under the signal's lock: " + e, e);
                }
            };
            signal.addListener(listener);
            signal.bump();
            signal.bump();
            signal.removeListener(listener);
            signal.bump();

            assertThat(heard).as("the generations the listener saw; none after its removal").containsExactly(1L, 2L);
        } finally {
            other.shutdownNow();
        }
    }
}
