package dev.baton.framework;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.cache.ChildData;
import dev.baton.framework.cache.NodeCache;
import dev.baton.framework.internal.WakeUps;
import dev.baton.framework.retry.RetryNTimes;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.ChaosProxy;
import dev.baton.test.EnsembleTest;
import dev.baton.test.SessionKiller;
import dev.baton.test.TestClients;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
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
                assertThat(created).failsWithin(WAIT)
                    .withThrowableOfType(java.util.concurrent.ExecutionException.class);   // failed, not still running (failsWithin alone accepts a timeout)
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

    // ---- x-<sessionId>- protection: every create of one session shares the prefix ----

    @Test
    void twoSessionProtectedCreatesWhoseRepliesWereLostTogetherEachFindTheirOwnNode(BatonClient direct) throws Exception {
        direct.create().forPath("/twins");
        try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1));
             BatonClient client = client(proxy, 10)) {
            proxy.pauseReplies();
            CompletableFuture<String> a = sessionProtected(client, "/twins/n-", "a");
            CompletableFuture<String> b = sessionProtected(client, "/twins/n-", "b");
            // the server applied both...
            await().atMost(WAIT).until(() -> direct.getChildren().forPath("/twins").size() == 2);
            // ...and both replies are lost with the connection
            proxy.cut();
            proxy.heal();
            String pathA = a.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            String pathB = b.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);

            assertThat(pathA).as("two creates, two nodes: each retry found its own").isNotEqualTo(pathB);
            assertThat(text(client.getData().forPath(pathA))).isEqualTo("a");
            assertThat(text(client.getData().forPath(pathB))).isEqualTo("b");
            assertThat(direct.getChildren().forPath("/twins")).containsExactlyInAnyOrder(name(pathA), name(pathB));
        }
    }

    @Test
    void aSessionProtectedCreateWhoseRequestNeverArrivedMakesItsOwnNodeBesideTheSessionsOthers(BatonClient direct)
        throws Exception {
        direct.create().forPath("/fresh");
        try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1));
             BatonClient client = client(proxy, 10)) {
            String first = client.create().withMode(CreateMode.EPHEMERAL_SEQUENTIAL).withSessionProtection()
                .forPath("/fresh/n-", bytes("first"));
            proxy.pause(); // nothing passes: the next request dies in the proxy with the connection
            CompletableFuture<String> second = sessionProtected(client, "/fresh/n-", "second");
            proxy.cut();
            proxy.heal();
            String path = second.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);

            assertThat(path).as("the retry must not adopt the session's other node").isNotEqualTo(first);
            assertThat(text(client.getData().forPath(path))).isEqualTo("second");
            assertThat(direct.getChildren().forPath("/fresh")).containsExactlyInAnyOrder(name(first), name(path));
        }
    }

    @Test
    void aSessionProtectedCreateThatGivesUpDeletesOnlyItsOwnNode(BatonClient direct) throws Exception {
        direct.create().forPath("/own");
        try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1));
             BatonClient client = client(proxy, 0)) {
            String kept = client.create().withMode(CreateMode.EPHEMERAL_SEQUENTIAL).withSessionProtection()
                .forPath("/own/n-", bytes("kept"));

            // fails for good: no retries, the reply is lost with the connection
            proxy.pauseReplies();
            CompletableFuture<String> failed = sessionProtected(client, "/own/n-", "failed");
            String failedNode = appliedBeside(direct, "/own", kept);
            proxy.cut();
            assertThat(failed).failsWithin(WAIT)
                .withThrowableOfType(java.util.concurrent.ExecutionException.class);   // failed, not still running (failsWithin alone accepts a timeout)
            proxy.heal();
            await().atMost(WAIT).until(() -> !direct.getChildren().forPath("/own").contains(failedNode));
            assertThat(direct.getChildren().forPath("/own")).as("the failed create's clean-up").containsExactly(name(kept));

            // cancelled while its reply is on the way
            proxy.pauseReplies();
            CompletableFuture<CreatedNode> cancelled = client.create().withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
                .withSessionProtection().forPathWithStatAsync("/own/n-", bytes("cancelled"));
            String cancelledNode = appliedBeside(direct, "/own", kept);
            cancelled.cancel(false);
            proxy.resume();
            await().atMost(WAIT).until(() -> !direct.getChildren().forPath("/own").contains(cancelledNode));
            assertThat(direct.getChildren().forPath("/own")).as("the cancelled create's clean-up").containsExactly(name(kept));
        }
    }

    @Test
    void aPersistentSessionProtectedCreateFindsItsNodeAfterTheSessionExpired(BatonClient direct) throws Exception {
        direct.create().forPath("/across");
        try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1));
             BatonClient client = client(proxy, 10)) {
            long before = client.sessionId();
            proxy.pauseReplies();
            CompletableFuture<String> created = client.create().withMode(CreateMode.PERSISTENT_SEQUENTIAL)
                .withSessionProtection().forPathAsync("/across/n-", bytes("kept"));
            await().atMost(WAIT).until(() -> direct.getChildren().forPath("/across").size() == 1);
            proxy.cut();
            SessionKiller.expire(client, ensemble.connectString(), WAIT);
            proxy.heal();
            String path = created.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);

            assertThat(client.sessionId()).as("the retry ran in a new session").isNotEqualTo(before);
            assertThat(direct.getChildren().forPath("/across")).as("one node for one create").containsExactly(name(path));
            assertThat(name(path)).startsWith("x-" + before + "-");
            assertThat(text(client.getData().forPath(path))).isEqualTo("kept");

            // an ephemeral node went with the session: the retry makes a fresh one in the new session
            long second = client.sessionId();
            proxy.pauseReplies();
            CompletableFuture<String> ephemeral = sessionProtected(client, "/across/e-", "fresh");
            await().atMost(WAIT).until(() -> direct.getChildren().forPath("/across").size() == 2);
            proxy.cut();
            SessionKiller.expire(client, ensemble.connectString(), WAIT);
            proxy.heal();
            String fresh = ephemeral.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);

            assertThat(name(fresh)).startsWith("x-" + client.sessionId() + "-").doesNotStartWith("x-" + second + "-");
            assertThat(direct.getChildren().forPath("/across")).containsExactlyInAnyOrder(name(path), name(fresh));
            assertThat(text(client.getData().forPath(fresh))).isEqualTo("fresh");
        }
    }

    @Test
    void theDataOfASessionProtectedNodeReadsAsItWasWritten(BatonClient client) throws Exception {
        client.create().forPath("/readers");
        String path = client.create().withMode(CreateMode.EPHEMERAL_SEQUENTIAL).withSessionProtection()
            .forPath("/readers/n-", bytes("payload"));
        String empty = client.create().withMode(CreateMode.EPHEMERAL).withSessionProtection().forPath("/readers/empty");

        assertThat(text(client.getData().forPath(path))).isEqualTo("payload");
        assertThat(text(client.getData().forPathWithStat(path).data())).isEqualTo("payload");
        assertThat(text(client.getData().forPathAsync(path).get(WAIT.toMillis(), TimeUnit.MILLISECONDS))).isEqualTo("payload");
        assertThat(client.getData().forPath(empty)).isEmpty();
        try (NodeCache cache = new NodeCache(client, path)) {
            cache.start();
            assertThat(cache.awaitInitialized(WAIT)).isTrue();
            assertThat(cache.current()).map(ChildData::data).map(ProtectedCreateTest::text).contains("payload");
        }
        client.setData().forPath(path, bytes("changed"));
        assertThat(text(client.getData().forPath(path))).isEqualTo("changed");
    }

    /**
     * A cancelled create must send nothing after its clean-up has looked. Here the create needs
     * its parent first: the cancel comes while the NoNode reply is held, and the create used to
     * go on to make the parent and then the node, after its clean-up had found nothing to delete.
     * The view answers on ZooKeeper's thread in reply order, so once a request sent after the
     * parent's create is answered, whatever that reply set off has been sent too.
     */
    @Test
    void aCancelledCreateSendsNothingAfterItsCleanUp(BatonClient direct) throws Exception {
        direct.create().forPath("/cancelled");
        try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1));
             BatonClient client = client(proxy, 10)) {
            BatonClient inOrder = WakeUps.repliesInPlace(client);
            proxy.pauseReplies();
            CompletableFuture<CreatedNode> created = inOrder.create().withMode(CreateMode.PERSISTENT_SEQUENTIAL)
                .withProtection().creatingParentsIfNeeded().forPathWithStatAsync("/cancelled/sub/n-", new byte[0]);
            created.cancel(false);
            CompletableFuture<?> fence = inOrder.checkExists().forPathAsync("/cancelled");
            proxy.resume();
            fence.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            inOrder.checkExists().forPathAsync("/cancelled").get(WAIT.toMillis(), TimeUnit.MILLISECONDS);

            List<String> left = new ArrayList<>();
            if (client.checkExists().forPath("/cancelled/sub") != null) {
                left.addAll(client.getChildren().forPath("/cancelled/sub"));
            }
            assertThat(left).as("nodes made by a create cancelled before it made any").isEmpty();
        }
    }

    @Test
    void cancellingTheStringFormOfAnAsyncCreateAbandonsItToo(BatonClient direct) throws Exception {
        direct.create().forPath("/cancel-path");
        try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1));
             BatonClient client = client(proxy, 10)) {
            proxy.pauseReplies();
            CompletableFuture<String> created = client.create().withMode(CreateMode.PERSISTENT_SEQUENTIAL).withProtection()
                .forPathAsync("/cancel-path/n-");
            await().atMost(WAIT).until(() -> direct.getChildren().forPath("/cancel-path").size() == 1);
            assertThat(created.cancel(false)).isTrue();
            proxy.resume();

            await().atMost(WAIT).untilAsserted(() -> assertThat(direct.getChildren().forPath("/cancel-path"))
                .as("the node of a create cancelled before its reply came").isEmpty());
        }
    }

    private static CompletableFuture<String> sessionProtected(BatonClient client, String path, String data) {
        return client.create().withMode(CreateMode.EPHEMERAL_SEQUENTIAL).withSessionProtection().forPathAsync(path, bytes(data));
    }

    /** Waits for a second node beside {@code kept} in {@code folder} and returns its name. */
    private static String appliedBeside(BatonClient direct, String folder, String kept) {
        await().atMost(WAIT).until(() -> direct.getChildren().forPath(folder).size() == 2);
        return await().atMost(WAIT).until(() -> direct.getChildren().forPath(folder).stream()
            .filter(child -> !child.equals(name(kept))).findFirst().orElse(null), java.util.Objects::nonNull);
    }

    private static String name(String path) {
        return path.substring(path.lastIndexOf('/') + 1);
    }

    /**
     * An idempotent create that finds the node taken reads it to see whose it is; if the node is
     * deleted between the two (another session's ephemeral going with its session, as a double
     * barrier's member node of an old session does), the path is free and the create goes on. It
     * threw the read's "no node" as the create's own failure (BarrierChaosTest, seed 53785271480025:
     * "create /chaos/barrier/...: no node").
     */
    @Test
    void anIdempotentCreateWhoseTakenNodeVanishesBeforeItIsReadCreatesIt(BatonClient direct) throws Exception {
        direct.create().forPath("/vanishing");
        direct.create().forPath("/vanishing/node", bytes("someone else's"));
        try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1));
             BatonClient client = client(proxy, 0)) {
            proxy.pauseReplies();
            CompletableFuture<String> created = client.create().withMode(CreateMode.EPHEMERAL).idempotent()
                .forPathAsync("/vanishing/node", bytes("mine"));
            // the session's requests are answered in order: once the marker after it exists, the create was refused
            CompletableFuture<String> marker = client.create().forPathAsync("/vanishing/marker");
            await().atMost(WAIT).until(() -> direct.checkExists().forPath("/vanishing/marker") != null);
            direct.delete().forPath("/vanishing/node");
            proxy.resume();

            assertThat(created.get(WAIT.toSeconds(), TimeUnit.SECONDS)).isEqualTo("/vanishing/node");
            marker.get(WAIT.toSeconds(), TimeUnit.SECONDS);
            assertThat(new String(direct.getData().forPath("/vanishing/node"), StandardCharsets.UTF_8)).isEqualTo("mine");
            assertThat(direct.checkExists().forPath("/vanishing/node").getEphemeralOwner()).isEqualTo(client.sessionId());
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(byte[] data) {
        return new String(data, StandardCharsets.UTF_8);
    }
}
