package dev.baton.recipes.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ConnectionState;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.ChaosProxy;
import dev.baton.test.EnsembleTest;
import dev.baton.test.HeldBackSteps;
import dev.baton.test.TestClients;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * ZooKeeper's {@link WriteLock} API, granted as its connection drops: its listener must not hear
 * {@code lockAcquired()} for a hold that is already lost (followed at once by
 * {@code lockReleased()}, and the lock left LOST, out of line, although {@code lock()} had promised
 * that {@code lockAcquired()} follows when it is held). The lost node is given back and the lock
 * queues again; once the connection is back it owns the lock, and the listener hears of it once.
 * Made deterministic as in {@link LostBeforeHandOutTest}: the engine's steps are held back while
 * the holder goes and the waiter's connection is cut.
 */
@EnsembleTest
class WriteLockLostAtGrantTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    EmbeddedEnsemble ensemble;

    @Test
    void aHoldLostAsItIsGrantedIsNotAnnouncedAndTheLockQueuesAgain(BatonClient other) throws Exception {
        String dir = "/write-lock-lost-at-grant";
        List<String> heard = new CopyOnWriteArrayList<>();
        try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1));
             BatonClient real = TestClients.started(BatonClient.builder().connectString(proxy.connectString())
                 .sessionTimeout(WAIT).connectionTimeout(WAIT))) {
            HeldBackSteps steps = HeldBackSteps.of(real);
            WriteLock first = new WriteLock(other, dir);
            assertThat(first.lock()).isTrue();
            String firstNode = first.getId();
            WriteLock waiter = new WriteLock(steps.client(), dir, new LockListener() {
                @Override
                public void lockAcquired() {
                    heard.add("lockAcquired");
                }

                @Override
                public void lockReleased() {
                    heard.add("lockReleased");
                }
            });
            assertThat(waiter.lock()).as("the waiter queues behind the holder").isFalse();
            String waitersFirstNode = waiter.getId();
            await("the waiter watches the holder's node").atMost(WAIT).until(() -> steps.answered(firstNode));

            steps.close();
            first.unlock();
            real.sync().forPath("/"); // the deletion's event came before this reply: its step is held back
            assertThat(steps.held()).as("steps held back").isPositive();
            proxy.cut();
            await("the waiter's connection is suspended").atMost(WAIT).until(() -> real.connectionState() == ConnectionState.SUSPENDED);
            steps.open(); // the step that grants runs now, on a suspended connection
            proxy.heal();

            await("the listener hears lockAcquired()").atMost(WAIT).until(() -> !heard.isEmpty());
            assertThat(waiter.isOwner()).as("lockAcquired() heard only for a hold that is valid then (heard: %s)", heard).isTrue();
            assertThat(waiter.getId()).as("a new place in line, not the lost one").isNotEqualTo(waitersFirstNode);
            await("the lost place is given back").atMost(WAIT).until(() -> other.getChildren().forPath(dir).size() == 1);
            assertThat(other.getChildren().forPath(dir)).containsExactly(waiter.getId().substring(dir.length() + 1));
            assertThat(heard).as("told once, and never that it lost a hold it was not told of").containsExactly("lockAcquired");
            waiter.unlock();
        }
    }
}
