package dev.baton.framework;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.retry.RetryNTimes;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.ChaosProxy;
import dev.baton.test.EnsembleTest;
import dev.baton.test.TestClients;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.Test;

/**
 * Idempotent creates under lost replies: the server applies a create, the reply never arrives,
 * the client retries. Never two nodes for one create; never an orphan once a create has given up.
 */
@EnsembleTest
class ProtectedCreateTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    EmbeddedEnsemble ensemble;

    private BatonClient client(ChaosProxy proxy, int retries) {
        return TestClients.started(BatonClient.builder().connectString(proxy.connectString())
            .sessionTimeout(Duration.ofSeconds(20)).connectionTimeout(Duration.ofSeconds(5))
            .retryPolicy(new RetryNTimes(retries, Duration.ofMillis(10))));
    }

    @Test
    void aRetriedCreateWhoseReplyWasLostFindsItsNodeInsteadOfMakingASecond(BatonClient direct) throws Exception {
        direct.create().forPath("/lost-replies");
        try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1));
             BatonClient client = client(proxy, 10)) {
            CreateMode[] modes = {CreateMode.EPHEMERAL_SEQUENTIAL, CreateMode.PERSISTENT_SEQUENTIAL, CreateMode.EPHEMERAL};
            for (int round = 0; round < 6; round++) {
                CreateMode mode = modes[round % modes.length];
                int before = direct.getChildren().forPath("/lost-replies").size();
                proxy.pauseReplies();
                CompletableFuture<String> created = client.create().withMode(mode).withProtection()
                    .forPathAsync("/lost-replies/item-" + round + "-");
                // the server applied it...
                await().atMost(WAIT).until(() -> direct.getChildren().forPath("/lost-replies").size() == before + 1);
                // ...and the reply is lost with the connection
                proxy.cut();
                proxy.heal();
                String path = created.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);

                List<String> children = direct.getChildren().forPath("/lost-replies");
                assertThat(children).as("round %d (%s): exactly one node for one create", round, mode).hasSize(before + 1);
                assertThat(children).contains(path.substring("/lost-replies/".length()));
            }
        }
    }

    @Test
    void aProtectedCreateThatGivesUpLeavesNoOrphan(BatonClient direct) throws Exception {
        direct.create().forPath("/orphans");
        try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1));
             BatonClient client = client(proxy, 0)) {
            for (int round = 0; round < 3; round++) {
                proxy.pauseReplies();
                CompletableFuture<String> created = client.create().withMode(CreateMode.PERSISTENT_SEQUENTIAL)
                    .withProtection().forPathAsync("/orphans/item-");
                await().atMost(WAIT).until(() -> direct.getChildren().forPath("/orphans").size() == 1);
                proxy.cut();
                // no retries allowed: the create fails with the connection loss...
                assertThat(created).failsWithin(WAIT);
                proxy.heal();
                // ...and the node it did make is deleted in the background once the client is back
                await().atMost(WAIT).until(() -> direct.getChildren().forPath("/orphans").isEmpty());
            }
        }
    }

    @Test
    void manyCreatesUnderRandomCutsNeverDuplicateAndNeverOrphan(BatonClient direct) throws Exception {
        direct.create().forPath("/storm");
        Random random = new Random(20261125L);
        int succeeded = 0;
        try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1));
             BatonClient client = client(proxy, 20)) {
            for (int round = 0; round < 12; round++) {
                CompletableFuture<String> created = client.create().withMode(CreateMode.PERSISTENT_SEQUENTIAL)
                    .withProtection().forPathAsync("/storm/n-");
                if (random.nextBoolean()) {
                    proxy.pauseReplies();
                }
                if (random.nextInt(3) == 0) {
                    proxy.cut();
                }
                proxy.heal();
                try {
                    created.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
                    succeeded++;
                } catch (java.util.concurrent.ExecutionException e) {
                    assertThat(e.getCause()).isInstanceOf(ConnectionLossException.class);
                }
            }
        }
        int expected = succeeded;
        await().atMost(WAIT).untilAsserted(() ->
            assertThat(direct.getChildren().forPath("/storm")).as("one node per successful create, no orphans").hasSize(expected));
    }
}
