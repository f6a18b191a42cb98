package dev.baton.recipes.config;

import static dev.baton.recipes.config.ConfigStoreTest.WAIT;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ClientClosedException;
import dev.baton.framework.ClientNotStartedException;
import dev.baton.framework.NoChildrenForEphemeralsException;
import dev.baton.test.ConnectString;
import dev.baton.test.EnsembleTest;
import dev.baton.test.TestClients;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.shared.SharedCountListener;
import org.apache.curator.framework.recipes.shared.SharedCountReader;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** SharedValue and SharedCount: their own behaviour, and the same node shared with Curator 5.9 both ways. */
@EnsembleTest
class SharedValuesTest {
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

    @Test
    void theSeedIsWrittenOnceAndTrySetOnlyWinsFromTheVersionItSaw(BatonClient a, BatonClient b) throws Exception {
        try (SharedValue one = new SharedValue(a, "/shared/banner", "seed-1".getBytes(UTF_8));
             SharedValue two = new SharedValue(b, "/shared/banner", "seed-2".getBytes(UTF_8))) {
            one.start();
            two.start();
            assertThat(two.getValue()).as("the first seed stands").isEqualTo("seed-1".getBytes(UTF_8));
            List<String> heard = new CopyOnWriteArrayList<>();
            two.addListener((value, bytes) -> heard.add(new String(bytes, UTF_8)));

            VersionedValue<byte[]> seen = one.getVersionedValue();
            assertThat(seen.version()).isZero();
            assertThat(one.trySetValue(seen, "first".getBytes(UTF_8))).isTrue();
            await().atMost(WAIT).until(() -> new String(two.getValue(), UTF_8).equals("first"));
            assertThat(two.trySetValue(seen, "stale".getBytes(UTF_8))).as("from version 0, which is gone").isFalse();
            assertThat(two.trySetValue(two.getVersionedValue(), "second".getBytes(UTF_8))).isTrue();
            await().atMost(WAIT).until(() -> new String(one.getValue(), UTF_8).equals("second"));
            assertThat(heard).contains("first");
            assertThatThrownBy(one::start).isInstanceOf(IllegalStateException.class).hasMessageContaining("already started");
        }
        assertThatThrownBy(() -> new SharedValue(a, "no-slash", new byte[0])).isInstanceOf(dev.baton.framework.InvalidPathException.class);
    }

    @Test
    void aSharedValueWrittenByCuratorIsReadByBatonAndTheOtherWay(BatonClient client) throws Exception {
        try (org.apache.curator.framework.recipes.shared.SharedValue theirs =
                 new org.apache.curator.framework.recipes.shared.SharedValue(curator, "/shared/both", "curator-seed".getBytes(UTF_8));
             SharedValue ours = new SharedValue(client, "/shared/both", "baton-seed".getBytes(UTF_8))) {
            theirs.start();
            ours.start();
            assertThat(ours.getValue()).isEqualTo("curator-seed".getBytes(UTF_8));
            theirs.setValue("from curator".getBytes(UTF_8));
            await().atMost(WAIT).until(() -> new String(ours.getValue(), UTF_8).equals("from curator"));

            VersionedValue<byte[]> seen = ours.getVersionedValue();
            assertThat(ours.trySetValue(seen, "from baton".getBytes(UTF_8))).isTrue();
            await().atMost(WAIT).until(() -> new String(theirs.getValue(), UTF_8).equals("from baton"));
            org.apache.curator.framework.recipes.shared.VersionedValue<byte[]> theirView = theirs.getVersionedValue();
            assertThat(theirView.getVersion()).as("the same node's version on both sides").isEqualTo(ours.getVersionedValue().version());
            assertThat(theirs.trySetValue(theirView, "curator again".getBytes(UTF_8))).isTrue();
            assertThat(ours.trySetValue(seen, "stale".getBytes(UTF_8))).isFalse();
            assertThat(curator.getData().forPath("/shared/both")).as("the path itself holds the bytes").isEqualTo("curator again".getBytes(UTF_8));
        }
    }

    @Test
    void aSharedCountIsFourBigEndianBytesThatCuratorAndBatonBothCount(BatonClient client) throws Exception {
        try (org.apache.curator.framework.recipes.shared.SharedCount theirs =
                 new org.apache.curator.framework.recipes.shared.SharedCount(curator, "/shared/count", 7);
             SharedCount ours = new SharedCount(client, "/shared/count", 99)) {
            ours.start();
            theirs.start();
            assertThat(client.getData().forPath("/shared/count")).containsExactly(0, 0, 0, 99);
            assertThat(theirs.getCount()).as("Curator reads Baton's seed").isEqualTo(99);
            List<Integer> heardByCurator = new CopyOnWriteArrayList<>();
            theirs.addListener(new SharedCountListener() {
                @Override
                public void countHasChanged(SharedCountReader reader, int newCount) {
                    heardByCurator.add(newCount);
                }

                @Override
                public void stateChanged(CuratorFramework c, ConnectionState state) {
                }
            });
            List<Integer> heardByBaton = new CopyOnWriteArrayList<>();
            ours.addListener((count, newCount) -> heardByBaton.add(newCount));

            // a read-modify-write loop on each side: +1 from Baton, +10 from Curator, ten rounds each
            for (int i = 0; i < 10; i++) {
                while (true) {
                    VersionedValue<Integer> seen = ours.getVersionedValue();
                    if (ours.trySetCount(seen, seen.value() + 1)) {
                        break;
                    }
                }
                while (true) {
                    org.apache.curator.framework.recipes.shared.VersionedValue<Integer> seen = theirs.getVersionedValue();
                    if (theirs.trySetCount(seen, seen.getValue() + 10)) {
                        break;
                    }
                }
            }
            await().atMost(WAIT).until(() -> ours.getCount() == 99 + 110 && theirs.getCount() == 99 + 110);
            assertThat(client.getData().forPath("/shared/count")).containsExactly(0, 0, 0, 209);
            await().atMost(WAIT).until(() -> heardByBaton.contains(209) && heardByCurator.contains(209));
            ours.setCount(-2);
            await().atMost(WAIT).until(() -> theirs.getCount() == -2);
            assertThat(client.getData().forPath("/shared/count")).containsExactly(0xff, 0xff, 0xff, 0xfe);
        }
    }

    @Test
    void aVersionedValueAnswersToCuratorsGetterNamesSoAMigratedLoopCompilesUnchanged(BatonClient client) throws Exception {
        try (SharedCount workers = new SharedCount(client, "/shared/migrated", 4)) {
            workers.start();
            // Curator's read-modify-write loop, word for word but for the imports
            VersionedValue<Integer> seen = workers.getVersionedValue();
            assertThat(seen.getValue()).as("getValue() is value()").isEqualTo(seen.value()).isEqualTo(4);
            assertThat(seen.getVersion()).as("getVersion() is version()").isEqualTo(seen.version()).isZero();
            assertThat(workers.trySetCount(seen, seen.getValue() + 1)).isTrue();
            assertThat(client.getData().forPath("/shared/migrated")).containsExactly(0, 0, 0, 5);
        }
    }

    @Test
    void aSharedCountNamesItselfNotSharedValueInItsErrors(BatonClient client) throws Exception {
        assertThatThrownBy(() -> new SharedCount(client, "workers", 0))
            .isInstanceOf(dev.baton.framework.InvalidPathException.class)
            .hasMessageStartingWith("SharedCount 'workers'");
        try (SharedCount workers = new SharedCount(client, "/shared/named", 0)) {
            assertThatThrownBy(() -> workers.setCount(1))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("SharedCount /shared/named is LATENT: call start() first");
            workers.start();
            assertThatThrownBy(workers::start)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("SharedCount /shared/named was already started");
        }
    }

    @Test
    void startingOnAClientThatWasNeverStartedFailsAtOnceAndWorksOnceItIs(BatonClient writer) throws Exception {
        // the newcomer's slip: build(), then the recipes, and client.start() forgotten. Until 2026-11-28
        // a shared value's start() failed on its create, but left the value "already started" for good;
        // a config store's start() returned and awaitInitialized simply ran out.
        writer.create().creatingParentsIfNeeded().forPath("/unstarted/config/greeting", "hello".getBytes(UTF_8));
        try (BatonClient unstarted = BatonClient.builder().connectString(connect).build();
             SharedValue value = new SharedValue(unstarted, "/unstarted/value", "v".getBytes(UTF_8));
             SharedCount count = new SharedCount(unstarted, "/unstarted/count", 7);
             ConfigStore store = ConfigStore.builder(unstarted, "/unstarted/config").build()) {
            assertThatThrownBy(value::start).isInstanceOf(ClientNotStartedException.class)
                .hasMessage("start SharedValue /unstarted/value: the client is not started; call start() first");
            assertThatThrownBy(count::start).isInstanceOf(ClientNotStartedException.class)
                .hasMessage("start SharedCount /unstarted/count: the client is not started; call start() first");
            assertThatThrownBy(store::start).isInstanceOf(ClientNotStartedException.class)
                .hasMessage("start the config store /unstarted/config: the client is not started; call start() first");

            unstarted.start();
            value.start();
            count.start();
            store.start();
            assertThat(value.getValue()).as("the same value starts once its client is started").isEqualTo("v".getBytes(UTF_8));
            assertThat(count.getCount()).isEqualTo(7);
            assertThat(store.awaitInitialized(WAIT)).as("the same store loads once its client is started").isTrue();
            assertThat(store.getString("greeting")).contains("hello");
        }
    }

    @Test
    void aStartWhoseCreateFailsLeavesTheValueUnstartedSoItStartsOnceTheCauseIsGone(BatonClient owner, BatonClient client)
        throws Exception {
        // an ephemeral node cannot have children: the value's create fails until the parent is gone
        owner.create().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL).forPath("/shared/ephemeral");
        try (SharedValue value = new SharedValue(client, "/shared/ephemeral/value", "seed".getBytes(UTF_8))) {
            assertThatThrownBy(value::start).isInstanceOf(NoChildrenForEphemeralsException.class)
                .hasMessageContaining("/shared/ephemeral");
            assertThatThrownBy(() -> value.setValue("late".getBytes(UTF_8)))
                .as("a value whose start failed is not started").isInstanceOf(IllegalStateException.class)
                .hasMessage("SharedValue /shared/ephemeral/value is LATENT: call start() first");

            owner.delete().forPath("/shared/ephemeral");
            value.start();
            assertThat(value.getValue()).as("the same value starts once the cause is gone").isEqualTo("seed".getBytes(UTF_8));
            assertThat(owner.getData().forPath("/shared/ephemeral/value")).isEqualTo("seed".getBytes(UTF_8));
            assertThatThrownBy(value::start).as("started now, a second start is refused")
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("was already started");
        }
    }

    @Test
    void aValueStartedOnAClosedClientSaysSoEveryTime(@ConnectString String connect) throws Exception {
        BatonClient closed = TestClients.started(connect, Duration.ofSeconds(10));
        closed.close();
        try (SharedCount count = new SharedCount(closed, "/shared/closed-client/count", 1)) {
            assertThatThrownBy(count::start).isInstanceOf(ClientClosedException.class)
                .hasMessage("create /shared/closed-client/count: the client is closed");
            assertThatThrownBy(count::start).as("the real reason again, not 'already started'")
                .isInstanceOf(ClientClosedException.class).hasMessage("create /shared/closed-client/count: the client is closed");
        }
    }
}
