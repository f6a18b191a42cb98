package dev.baton.recipes.group;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.test.ConnectString;
import dev.baton.test.EnsembleTest;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.imps.ProtectedUtils;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Curator 5.9's GroupMember and PersistentNode and Baton's, on the same paths: each sees and keeps what the other does. */
@EnsembleTest
class CuratorInteropTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    @ConnectString
    String connect;
    private CuratorFramework curator;

    @BeforeEach
    void startCurator() throws Exception {
        curator = CuratorFrameworkFactory.newClient(connect, 10_000, 10_000, new RetryOneTime(100));
        curator.start();
        assertThat(curator.blockUntilConnected(30, TimeUnit.SECONDS)).isTrue();
    }

    @AfterEach
    void stopCurator() {
        curator.close();
    }

    private static byte[] bytes(String s) {
        return s.getBytes(UTF_8);
    }

    private static String text(Map<String, byte[]> members, String id) {
        byte[] data = members.get(id);
        return data == null ? null : new String(data, UTF_8);
    }

    @Test
    void curatorAndBatonMembersOfOneGroupSeeEachOtherJoinUpdateAndLeave(BatonClient client) throws Exception {
        org.apache.curator.framework.recipes.nodes.GroupMember theirs =
            new org.apache.curator.framework.recipes.nodes.GroupMember(curator, "/interop/group", "curator-1", bytes("c1"));
        theirs.start();
        try (GroupMember ours = new GroupMember(client, "/interop/group", "baton-1", bytes("b1"))) {
            ours.start();
            assertThat(ours.awaitJoined(WAIT)).isTrue();

            await().atMost(WAIT).until(() -> ours.getCurrentMembers().keySet().equals(Set.of("curator-1", "baton-1"))
                && theirs.getCurrentMembers().keySet().equals(Set.of("curator-1", "baton-1")));
            assertThat(text(ours.getCurrentMembers(), "curator-1")).isEqualTo("c1");
            assertThat(text(theirs.getCurrentMembers(), "baton-1")).isEqualTo("b1");

            ours.setThisData(bytes("b2"));
            theirs.setThisData(bytes("c2"));
            await().atMost(WAIT).until(() -> "b2".equals(text(theirs.getCurrentMembers(), "baton-1"))
                && "c2".equals(text(ours.getCurrentMembers(), "curator-1")));

            theirs.close();
            await().atMost(WAIT).until(() -> ours.getCurrentMembers().keySet().equals(Set.of("baton-1")));
        } finally {
            theirs.close();
        }
        // and Baton's leaving is seen by a Curator member
        org.apache.curator.framework.recipes.nodes.GroupMember watcher =
            new org.apache.curator.framework.recipes.nodes.GroupMember(curator, "/interop/group", "curator-2", bytes("c"));
        watcher.start();
        try {
            GroupMember leaving = new GroupMember(client, "/interop/group", "baton-2", bytes("b"));
            leaving.start();
            await().atMost(WAIT).until(() -> watcher.getCurrentMembers().containsKey("baton-2"));
            leaving.close();
            await().atMost(WAIT).until(() -> !watcher.getCurrentMembers().containsKey("baton-2"));
        } finally {
            watcher.close();
        }
    }

    @Test
    void aBatonProtectedNodeHasTheLayoutCuratorReads(BatonClient client) throws Exception {
        try (PersistentNode node = new PersistentNode(client, CreateMode.EPHEMERAL_SEQUENTIAL, true, "/interop/pn/worker-", bytes("w"))) {
            node.start();
            assertThat(node.waitForInitialCreate(WAIT)).isTrue();
            String name = node.getActualPath().substring("/interop/pn/".length());
            assertThat(ProtectedUtils.isProtectedZNode(name)).as("%s is protected as Curator writes it", name).isTrue();
            assertThat(ProtectedUtils.normalize(name)).matches("worker-\\d{10}");
            assertThat(curator.getData().forPath(node.getActualPath())).isEqualTo(bytes("w"));
        }
    }

    @Test
    void aCuratorAndABatonPersistentNodeOnOnePathKeepTheNodeBetweenThem(BatonClient client) throws Exception {
        String path = "/interop/shared/x";
        org.apache.curator.framework.recipes.nodes.PersistentNode theirs =
            new org.apache.curator.framework.recipes.nodes.PersistentNode(curator, CreateMode.EPHEMERAL, false, path, bytes("curator"));
        theirs.start();
        assertThat(theirs.waitForInitialCreate(20, TimeUnit.SECONDS)).isTrue();
        try (PersistentNode ours = new PersistentNode(client, CreateMode.EPHEMERAL, false, path, bytes("baton"))) {
            ours.start();
            assertThat(ours.waitForInitialCreate(WAIT)).isTrue();
            assertThat(client.getData().forPath(path)).as("Baton's takes the node over, as Curator's would").isEqualTo(bytes("baton"));

            theirs.close(); // Curator deletes the node on close...
            await().atMost(WAIT).until(() -> {   // ...and Baton's makes it again, in its own session
                var stat = client.checkExists().forPath(path);
                return stat != null && stat.getEphemeralOwner() == client.sessionId();
            });
        }
        // the other way round: Curator's keeps the node Baton's deleted on close
        org.apache.curator.framework.recipes.nodes.PersistentNode keeper =
            new org.apache.curator.framework.recipes.nodes.PersistentNode(curator, CreateMode.EPHEMERAL, false, "/interop/shared/y", bytes("c"));
        keeper.start();
        assertThat(keeper.waitForInitialCreate(20, TimeUnit.SECONDS)).isTrue();
        try {
            PersistentNode ours = new PersistentNode(client, CreateMode.EPHEMERAL, false, "/interop/shared/y", bytes("b"));
            ours.start();
            assertThat(ours.waitForInitialCreate(WAIT)).isTrue();
            ours.close();
            await().atMost(WAIT).until(() -> {
                var stat = client.checkExists().forPath("/interop/shared/y");
                return stat != null && stat.getEphemeralOwner() == curator.getZookeeperClient().getZooKeeper().getSessionId();
            });
        } finally {
            keeper.close();
        }
    }
}
