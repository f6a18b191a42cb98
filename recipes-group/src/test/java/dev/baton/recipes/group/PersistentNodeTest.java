package dev.baton.recipes.group;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ClientNotStartedException;
import dev.baton.framework.NoChildrenForEphemeralsException;
import dev.baton.framework.NoNodeException;
import dev.baton.test.ConnectString;
import dev.baton.test.EnsembleTest;
import dev.baton.test.SessionKiller;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.Test;

/** A node kept in existence: after deletion, after its parent's deletion, after session expiry, with its latest data. */
@EnsembleTest
class PersistentNodeTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    @ConnectString
    String connect;

    @Test
    void startingOnAClientThatWasNeverStartedFailsAtOnceAndWorksOnceItIs(BatonClient reader) throws Exception {
        // the newcomer's slip: build(), then the node, the TTL node and the member, and client.start()
        // forgotten. Until 2026-11-28 each start() returned and the node never appeared:
        // waitForInitialCreate and awaitJoined simply ran out.
        try (BatonClient unstarted = BatonClient.builder().connectString(connect).build();
             PersistentNode node = new PersistentNode(unstarted, CreateMode.EPHEMERAL, false, "/pn/unstarted/node", bytes("n"));
             PersistentTtlNode ttl = new PersistentTtlNode(unstarted, "/pn/unstarted/ttl", Duration.ofMinutes(1), bytes("t"));
             GroupMember member = new GroupMember(unstarted, "/pn/unstarted/group", "m1", bytes("m"))) {
            assertThatThrownBy(node::start).isInstanceOf(ClientNotStartedException.class)
                .hasMessage("start PersistentNode /pn/unstarted/node: the client is not started; call start() first");
            assertThatThrownBy(ttl::start).isInstanceOf(ClientNotStartedException.class)
                .hasMessage("start PersistentTtlNode /pn/unstarted/ttl: the client is not started; call start() first");
            assertThatThrownBy(member::start).isInstanceOf(ClientNotStartedException.class)
                .hasMessage("start GroupMember /pn/unstarted/group/m1: the client is not started; call start() first");

            unstarted.start();
            node.start();
            ttl.start();
            member.start();
            assertThat(node.waitForInitialCreate(WAIT)).as("the same node is created once its client is started").isTrue();
            assertThat(ttl.waitForInitialCreate(WAIT)).as("the same TTL node too").isTrue();
            assertThat(member.awaitJoined(WAIT)).as("and the same member joins").isTrue();
            assertThat(reader.getData().forPath("/pn/unstarted/node")).isEqualTo(bytes("n"));
            assertThat(reader.getData().forPath("/pn/unstarted/ttl")).isEqualTo(bytes("t"));
            await().atMost(WAIT).untilAsserted(() -> assertThat(member.getCurrentMembers()).containsOnlyKeys("m1"));
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(UTF_8);
    }

    /** The node's data, or null while it does not exist. */
    private static String dataOf(BatonClient client, String path) throws InterruptedException {
        try {
            return new String(client.getData().forPath(path), UTF_8);
        } catch (NoNodeException e) {
            return null;
        }
    }

    /** The children of a folder, none if it is gone (an empty container folder is reaped). */
    private static List<String> childrenOf(BatonClient client, String path) throws InterruptedException {
        try {
            return client.getChildren().forPath(path);
        } catch (NoNodeException e) {
            return List.of();
        }
    }

    @Test
    void anEphemeralNodeDeletedBySomeoneElseIsCreatedAgainAndListenersHearEachCreation(BatonClient client, BatonClient other)
        throws Exception {
        List<String> created = new CopyOnWriteArrayList<>();
        try (PersistentNode node = new PersistentNode(client, CreateMode.EPHEMERAL, false, "/pn/deleted/w1", bytes("v1"))) {
            node.addListener(created::add);
            node.start();
            assertThat(node.waitForInitialCreate(WAIT)).isTrue();
            assertThat(node.getActualPath()).isEqualTo("/pn/deleted/w1");
            assertThat(dataOf(other, "/pn/deleted/w1")).isEqualTo("v1");
            long first = other.checkExists().forPath("/pn/deleted/w1").getCzxid();

            other.delete().forPath("/pn/deleted/w1");
            await().atMost(WAIT).until(() -> {
                Stat stat = other.checkExists().forPath("/pn/deleted/w1");
                return stat != null && stat.getCzxid() != first;
            });
            assertThat(dataOf(other, "/pn/deleted/w1")).isEqualTo("v1");
            await().atMost(WAIT).until(() -> created.size() == 2);
            assertThat(created).containsExactly("/pn/deleted/w1", "/pn/deleted/w1");
        }
    }

    @Test
    void dataSetWhileRunningIsWrittenAndIsWhatTheNodeIsCreatedWithAgain(BatonClient client, BatonClient other) throws Exception {
        try (PersistentNode node = new PersistentNode(client, CreateMode.EPHEMERAL, false, "/pn/data/w1", bytes("v1"))) {
            node.start();
            assertThat(node.waitForInitialCreate(WAIT)).isTrue();
            node.setData(bytes("v2"));
            assertThat(dataOf(other, "/pn/data/w1")).as("setData returns once the node carries it").isEqualTo("v2");
            assertThat(node.getData()).isEqualTo(bytes("v2"));

            other.delete().forPath("/pn/data/w1");
            await().atMost(WAIT).until(() -> "v2".equals(dataOf(other, "/pn/data/w1")));
        }
    }

    @Test
    void dataSetBeforeStartIsWhatTheNodeIsCreatedWith(BatonClient client, BatonClient other) throws Exception {
        try (PersistentNode node = new PersistentNode(client, CreateMode.PERSISTENT, false, "/pn/early/p1", bytes("v1"))) {
            node.setData(bytes("v0"));
            node.start();
            assertThat(node.waitForInitialCreate(WAIT)).isTrue();
            assertThat(dataOf(other, "/pn/early/p1")).isEqualTo("v0");
        }
    }

    @Test
    void aNodeWhoseParentIsDeletedIsCreatedAgainWithItsParent(BatonClient client, BatonClient other) throws Exception {
        try (PersistentNode node = new PersistentNode(client, CreateMode.EPHEMERAL, false, "/pn/parent/a/b/w1", bytes("v1"))) {
            node.start();
            assertThat(node.waitForInitialCreate(WAIT)).isTrue();
            other.delete().deletingChildrenIfNeeded().forPath("/pn/parent/a");
            await().atMost(WAIT).until(() -> "v1".equals(dataOf(other, "/pn/parent/a/b/w1")));
        }
    }

    @Test
    void anEphemeralNodeIsCreatedAgainInTheNewSessionAfterTheOldOneExpired(BatonClient other) throws Exception {
        try (BatonClient client = dev.baton.test.TestClients.started(connect, Duration.ofSeconds(10));
             PersistentNode node = new PersistentNode(client, CreateMode.EPHEMERAL, false, "/pn/expiry/w1", bytes("v1"))) {
            node.start();
            assertThat(node.waitForInitialCreate(WAIT)).isTrue();
            long oldSession = client.sessionId();
            assertThat(other.checkExists().forPath("/pn/expiry/w1").getEphemeralOwner()).isEqualTo(oldSession);

            SessionKiller.expire(client, connect, WAIT);
            await().atMost(WAIT).until(() -> {
                Stat stat = other.checkExists().forPath("/pn/expiry/w1");
                return stat != null && stat.getEphemeralOwner() != oldSession && stat.getEphemeralOwner() == client.sessionId();
            });
            assertThat(dataOf(other, "/pn/expiry/w1")).isEqualTo("v1");
        }
    }

    @Test
    void aProtectedSequentialNodeKeepsItsActualPathWhenCreatedAgain(BatonClient other) throws Exception {
        try (BatonClient client = dev.baton.test.TestClients.started(connect, Duration.ofSeconds(10));
             PersistentNode node = new PersistentNode(client, CreateMode.EPHEMERAL_SEQUENTIAL, true, "/pn/seq/worker-", bytes("v1"))) {
            node.start();
            assertThat(node.waitForInitialCreate(WAIT)).isTrue();
            String actual = node.getActualPath();
            assertThat(actual).as("Curator's protected layout").matches("/pn/seq/_c_[0-9a-f-]{36}-worker-\\d{10}");
            assertThat(other.getChildren().forPath("/pn/seq")).hasSize(1);

            other.delete().forPath(actual);
            await().atMost(WAIT).until(() -> other.checkExists().forPath(actual) != null);
            long session = client.sessionId();
            SessionKiller.expire(client, connect, WAIT);
            await().atMost(WAIT).until(() -> {
                Stat stat = other.checkExists().forPath(actual);
                return stat != null && stat.getEphemeralOwner() != session;
            });
            assertThat(node.getActualPath()).isEqualTo(actual);
            assertThat(other.getChildren().forPath("/pn/seq")).as("always one node, at one path").hasSize(1);
        }
    }

    @Test
    void aNodeAlreadyThereIsTakenOverGivenOurDataAndKept(BatonClient client, BatonClient other) throws Exception {
        other.create().creatingParentsIfNeeded().forPath("/pn/taken/p1", bytes("theirs"));
        try (PersistentNode node = new PersistentNode(client, CreateMode.PERSISTENT, false, "/pn/taken/p1", bytes("ours"))) {
            node.start();
            assertThat(node.waitForInitialCreate(WAIT)).isTrue();
            assertThat(dataOf(other, "/pn/taken/p1")).isEqualTo("ours");
            other.delete().forPath("/pn/taken/p1");
            await().atMost(WAIT).until(() -> "ours".equals(dataOf(other, "/pn/taken/p1")));
        }
    }

    @Test
    void closeDeletesTheNodeAndItIsNotCreatedAgain(BatonClient client, BatonClient other) throws Exception {
        PersistentNode node = new PersistentNode(client, CreateMode.PERSISTENT, false, "/pn/closed/p1", bytes("v1"));
        node.start();
        assertThat(node.waitForInitialCreate(WAIT)).isTrue();
        node.close();
        assertThat(other.checkExists().forPath("/pn/closed/p1")).as("deleted by close()").isNull();
        assertThat(childrenOf(client, "/pn/closed")).isEmpty();
        assertThatThrownBy(() -> node.setData(bytes("v2"))).isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
    }

    @Test
    void closeRightAfterStartLeavesNoNodeBehind(BatonClient client, BatonClient other) throws Exception {
        for (int i = 0; i < 10; i++) {
            PersistentNode node = new PersistentNode(client, CreateMode.PERSISTENT_SEQUENTIAL, true, "/pn/race/p-", bytes("v1"));
            node.start();
            node.close();   // a create may be in flight: close waits for it before deleting
        }
        assertThat(childrenOf(other, "/pn/race")).as("no orphan of a create that landed after close began").isEmpty();
    }

    @Test
    void aNodeUnderAnEphemeralParentIsRefusedAtOnceNamingTheParentAndCreatedOnceTheParentIsGone(BatonClient client, BatonClient other)
        throws Exception {
        other.create().withMode(CreateMode.EPHEMERAL).creatingParentsIfNeeded().forPath("/pn/ephemeral-parent", bytes(""));
        // the ephemeral node is an ancestor, not the parent: the missing parents in between cannot be made either
        try (PersistentNode node = new PersistentNode(client, CreateMode.EPHEMERAL, false, "/pn/ephemeral-parent/a/child", bytes("v"))) {
            node.start();
            assertThatThrownBy(() -> node.waitForInitialCreate(WAIT))
                .as("refused at once, not a false after the timeout")
                .isInstanceOf(NoChildrenForEphemeralsException.class)
                .hasMessageContaining("/pn/ephemeral-parent is an ephemeral node");

            other.delete().forPath("/pn/ephemeral-parent");   // the node can be made now, and is, without being asked
            await().atMost(WAIT).until(() -> "v".equals(dataOf(other, "/pn/ephemeral-parent/a/child")));
            assertThat(node.waitForInitialCreate(WAIT)).isTrue();
        }
    }

    @Test
    void setDataUnderAnEphemeralParentFailsNamingTheParentAndTheNodeIsCreatedWithItOnceTheParentIsGone(BatonClient client,
        BatonClient other) throws Exception {
        other.create().withMode(CreateMode.EPHEMERAL).creatingParentsIfNeeded().forPath("/pn/ephemeral-set", bytes(""));
        try (PersistentNode node = new PersistentNode(client, CreateMode.EPHEMERAL, false, "/pn/ephemeral-set/child", bytes("v1"))) {
            node.start();
            assertThatThrownBy(() -> node.waitForInitialCreate(WAIT)).isInstanceOf(NoChildrenForEphemeralsException.class);

            // the same reason as waitForInitialCreate gives, not the servers' bare "ephemeral nodes cannot have children"
            assertThatThrownBy(() -> node.setData(bytes("v2")))
                .isInstanceOf(NoChildrenForEphemeralsException.class)
                .hasMessageContaining("/pn/ephemeral-set is an ephemeral node")
                .hasMessageContaining("the node is created once /pn/ephemeral-set is gone");

            other.delete().forPath("/pn/ephemeral-set");
            await().atMost(WAIT).until(() -> "v2".equals(dataOf(other, "/pn/ephemeral-set/child")));
        }
    }

    @Test
    void waitForInitialCreateBeforeStartFailsAtOnceSayingToCallStart(BatonClient client) {
        try (PersistentNode node = new PersistentNode(client, CreateMode.EPHEMERAL, false, "/pn/not-started", bytes("v"))) {
            assertThatThrownBy(() -> node.waitForInitialCreate(WAIT))
                .as("fails at once, not a false after the timeout")
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("call start() first");
        }
    }

    @Test
    void aTtlModeIsRefusedWithTheRecipeToUseInstead(BatonClient client) {
        assertThatThrownBy(() -> new PersistentNode(client, CreateMode.PERSISTENT_WITH_TTL, false, "/pn/ttl", bytes("v")))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("use PersistentTtlNode");
        assertThatThrownBy(() -> new PersistentNode(client, CreateMode.PERSISTENT, false, "pn/relative", bytes("v")))
            .isInstanceOf(dev.baton.framework.InvalidPathException.class);
    }
}
