package dev.baton.framework;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.framework.cache.ChildrenCache;
import dev.baton.framework.cache.NodeCache;
import dev.baton.framework.cache.TreeCache;
import dev.baton.framework.contention.Contention;
import dev.baton.framework.contention.ContentionRule;
import dev.baton.test.BadPaths;
import dev.baton.test.ConnectString;
import dev.baton.test.EnsembleTest;
import dev.baton.test.TestClients;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.Test;

/** Bad input fails at once, typed, with a message that says what was expected — and nothing is sent or left behind. */
@EnsembleTest
class BadInputTest {

    @Test
    void invalidPathsFailBeforeAnythingIsSent(BatonClient client) {
        assertThatThrownBy(() -> client.create().forPath("relative"))
            .isInstanceOf(InvalidPathException.class).hasMessage("create 'relative': invalid path: Path must start with / character");
        assertThatThrownBy(() -> client.getData().forPath("/trailing/"))
            .isInstanceOf(InvalidPathException.class).hasMessageContaining("must not end with / character");
        assertThatThrownBy(() -> client.setData().forPath("/a//b", new byte[0]))
            .isInstanceOf(InvalidPathException.class).hasMessageContaining("empty node name");
        assertThatThrownBy(() -> client.delete().forPath("/"))
            .isInstanceOf(InvalidPathException.class).hasMessageContaining("the root node cannot be deleted");
        assertThat(client.getData().forPathAsync("no-slash")).isCompletedExceptionally();
    }

    @Test
    void cachesAndTheEngineRefuseABadPathNamingThemselves(BatonClient client) {
        BadPaths.assertRefusedExceptRoot("TreeCache", path -> TreeCache.builder(client, path));
        BadPaths.assertRefusedExceptRoot("NodeCache", path -> new NodeCache(client, path));
        BadPaths.assertRefusedExceptRoot("ChildrenCache", path -> new ChildrenCache(client, path));
        BadPaths.assertRefused("Contention", path -> Contention.of(client, path, "lock-", ContentionRule.mutex()));
    }

    @Test
    void dataLargerThanTheServerAcceptsFailsBeforeSendingAndKeepsTheConnection(BatonClient client) throws Exception {
        List<ConnectionState> states = new ArrayList<>();
        client.addConnectionStateListener((c, s) -> states.add(s));
        long session = client.sessionId();
        byte[] tooBig = new byte[1024 * 1024 + 1];

        DataTooLargeException e = (DataTooLargeException) org.assertj.core.api.Assertions.catchThrowable(() ->
            client.create().forPath("/big", tooBig));
        assertThat(e.getMessage()).startsWith("create /big: data is 1048577 bytes; the server accepts at most ");
        assertThat(e.limit()).isLessThan(tooBig.length).isGreaterThan(1_000_000);
        assertThatThrownBy(() -> client.transaction().create("/t1", new byte[600_000]).create("/t2", new byte[600_000]))
            .isInstanceOf(DataTooLargeException.class);

        // the largest allowed value goes through on the same connection
        client.create().forPath("/big", new byte[e.limit()]);
        assertThat(client.sessionId()).isEqualTo(session);
        assertThat(states).as("no disconnect happened").isEmpty();
        assertThat(client.checkExists().forPath("/t1")).isNull();
    }

    @Test
    void inconsistentCreateSettingsAreRejected(BatonClient client) {
        assertThatThrownBy(() -> client.create().withMode(CreateMode.PERSISTENT_WITH_TTL).forPath("/ttl"))
            .isInstanceOf(IllegalArgumentException.class).hasMessage("create /ttl: mode PERSISTENT_WITH_TTL needs withTtl(...)");
        assertThatThrownBy(() -> client.create().withTtl(Duration.ofSeconds(1)).forPath("/ttl"))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("withTtl needs mode PERSISTENT_WITH_TTL");
        assertThatThrownBy(() -> client.create().withTtl(Duration.ZERO))
            .isInstanceOf(IllegalArgumentException.class).hasMessage("ttl must be positive, was PT0S");
        assertThatThrownBy(() -> client.setData().withVersion(-2))
            .isInstanceOf(IllegalArgumentException.class).hasMessage("version must be -1 (any) or a node version, was -2");
        assertThatThrownBy(() -> client.create().forPath("/null", null))
            .isInstanceOf(NullPointerException.class).hasMessage("data");
        assertThatThrownBy(() -> client.create().withAcl(List.of()))
            .isInstanceOf(IllegalArgumentException.class).hasMessage("acl must grant something to someone, was empty");
    }

    @Test
    void waitsRefuseANegativeTimeoutAndTakeOneTooLongToCountAsNoLimit(BatonClient client) throws Exception {
        assertThatThrownBy(() -> client.blockUntilConnected(Duration.ofSeconds(-1)))
            .isInstanceOf(IllegalArgumentException.class).hasMessage("timeout must not be negative, was PT-1S");
        assertThat(client.blockUntilConnected(Duration.ofMillis(Long.MAX_VALUE))).isTrue();
        try (TreeCache cache = TreeCache.builder(client, "/badinput-cache").build()) {
            cache.start();
            assertThatThrownBy(() -> cache.awaitInitialized(Duration.ofMillis(-1))).isInstanceOf(IllegalArgumentException.class);
            assertThat(cache.awaitInitialized(java.time.temporal.ChronoUnit.FOREVER.getDuration())).isTrue();
        }
    }

    @Test
    void aClientThatIsNotStartedRefusesEveryOperationTypedAndSaysToStartIt(@ConnectString String connect, BatonClient observer)
        throws Exception {
        BatonClient client = BatonClient.builder().connectString(connect).build();
        try {
            assertThatThrownBy(() -> client.create().forPath("/never-sent"))
                .isInstanceOf(ClientNotStartedException.class).isInstanceOf(BatonException.class)
                .hasMessage("create /never-sent: the client is not started; call start() first");
            assertThatThrownBy(() -> client.getData().forPath("/x")).isInstanceOf(ClientNotStartedException.class);
            assertThatThrownBy(() -> client.transaction().create("/t", new byte[0]).commit()).isInstanceOf(ClientNotStartedException.class);
            assertThatThrownBy(() -> client.blockUntilConnected(Duration.ofSeconds(1)))
                .isInstanceOf(ClientNotStartedException.class).hasMessage("blockUntilConnected: the client is not started; call start() first");
            assertThat(client.getData().forPathAsync("/x")).failsWithin(Duration.ofSeconds(10))
                .withThrowableOfType(java.util.concurrent.ExecutionException.class)
                .withCauseInstanceOf(ClientNotStartedException.class);
            assertThat(observer.checkExists().forPath("/never-sent")).as("nothing was sent").isNull();

            client.start();
            assertThat(client.blockUntilConnected(Duration.ofSeconds(10))).isTrue();
            assertThat(client.create().forPath("/never-sent")).as("once started, the same call works").isEqualTo("/never-sent");
        } finally {
            client.close();
        }
    }

    @Test
    void requireStartedRefusesAnUnstartedOrClosedClientInTheWordsOfTheRecipeThatAsks(@ConnectString String connect) {
        BatonClient client = BatonClient.builder().connectString(connect).build();
        BatonClient neverStarted = BatonClient.builder().connectString(connect).build();
        try {
            assertThatThrownBy(() -> client.requireStarted("start the inventory sync", "/inventory"))
                .isInstanceOf(ClientNotStartedException.class)
                .hasMessage("start the inventory sync /inventory: the client is not started; call start() first");
            assertThatThrownBy(() -> client.usingNamespace("ns").requireStarted("start the inventory sync", null))
                .as("a namespace view answers for its client").isInstanceOf(ClientNotStartedException.class)
                .hasMessage("start the inventory sync: the client is not started; call start() first");

            client.start();
            client.requireStarted("start the inventory sync", "/inventory"); // started, even before it connects: no refusal
            client.usingNamespace("ns").requireStarted("start the inventory sync", "/inventory");
        } finally {
            client.close();
            neverStarted.close();
        }
        assertThatThrownBy(() -> client.requireStarted("start the inventory sync", "/inventory"))
            .isInstanceOf(ClientClosedException.class).hasMessage("start the inventory sync /inventory: the client is closed");
        assertThatThrownBy(() -> neverStarted.requireStarted("start the inventory sync", "/inventory"))
            .as("closed before it was started: start() cannot help it, so it is refused as closed")
            .isInstanceOf(ClientClosedException.class).hasMessage("start the inventory sync /inventory: the client is closed");
    }

    @Test
    void aCacheOfAClosedClientRefusesToStart(@ConnectString String connect) {
        BatonClient closed = TestClients.started(connect, Duration.ofSeconds(10));
        closed.close();
        try (TreeCache cache = TreeCache.builder(closed, "/closed-cache").build()) {
            assertThatThrownBy(cache::start).isInstanceOf(ClientClosedException.class).hasMessageContaining("/closed-cache");
        }
    }

    @Test
    void aClosedClientRefusesEveryOperationAndItsEphemeralNodesAreGone(@ConnectString String connect, BatonClient observer)
        throws Exception {
        BatonClient client = TestClients.started(connect, Duration.ofSeconds(10));
        client.create().withMode(CreateMode.EPHEMERAL).forPath("/closed-owner");
        client.close();
        assertThat(client.isClosed()).isTrue();
        assertThat(client.connectionState()).as("a closed client is not connected").isEqualTo(ConnectionState.LOST);
        assertThat(client.usingNamespace("ns").connectionState()).isEqualTo(ConnectionState.LOST);
        assertThatThrownBy(() -> client.getData().forPath("/x"))
            .isInstanceOf(ClientClosedException.class).hasMessage("getData /x: the client is closed");
        assertThat(client.create().forPathAsync("/x")).isCompletedExceptionally();
        assertThatThrownBy(client::start).isInstanceOf(ClientClosedException.class);
        assertThat(observer.checkExists().forPath("/closed-owner")).as("close ends the session").isNull();
    }
}
