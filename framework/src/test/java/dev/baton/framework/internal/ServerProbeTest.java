package dev.baton.framework.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher.Event.EventType;
import org.apache.zookeeper.Watcher.Event.KeeperState;
import org.junit.jupiter.api.Test;

/** The pure parts of learning a server's capabilities, and the filter of recursive watchers' events. */
class ServerProbeTest {

    @Test
    void aRequestTheServerDoesNotKnowIsUnimplementedAndOneItRejectsForAnotherReasonIsKnown() {
        assertThat(ServerProbe.understood(Code.UNIMPLEMENTED.intValue())).isFalse();
        assertThat(ServerProbe.understood(Code.NONODE.intValue())).as("a create under an absent parent").isTrue();
        assertThat(ServerProbe.understood(Code.OK.intValue())).isTrue();
        assertThat(ServerProbe.understood(Code.NOAUTH.intValue())).isTrue();
        assertThat(ServerProbe.understood(Code.CONNECTIONLOSS.intValue())).as("no answer: still unknown").isNull();
        assertThat(ServerProbe.understood(Code.NOTREADONLY.intValue())).isNull();
        assertThat(ServerProbe.understood(Code.BADARGUMENTS.intValue())).isNull();
    }

    @Test
    void theVersionComesFromTheSrvrAnswer() {
        String srvr = "Zookeeper version: 3.9.5-293c895a8d966a3ecb92872be4a1daf87d725da2, built on 2026-02-11 20:18 UTC\n"
            + "Latency min/avg/max: 0/0.0/0\nMode: standalone\n";
        assertThat(ServerProbe.versionIn(srvr)).contains("3.9.5");
        assertThat(ServerProbe.versionIn("Zookeeper version: 3.8.4, built on 2024-02-12\n")).contains("3.8.4");
        assertThat(ServerProbe.versionIn("srvr is not executed because it is not in the whitelist.\n")).isEmpty();
        assertThat(ServerProbe.versionIn("This ZooKeeper instance is not currently serving requests\n")).isEmpty();
    }

    @Test
    void theServerAddressPrefersTheIpOverTheName() {
        assertThat(ServerProbe.hostAndPort("localhost/127.0.0.1:2181")).hasValueSatisfying(hp ->
            assertThat(hp).containsExactly("127.0.0.1", "2181"));
        assertThat(ServerProbe.hostAndPort("zk1.example.com/:2181")).hasValueSatisfying(hp ->
            assertThat(hp).containsExactly("zk1.example.com", "2181"));
        assertThat(ServerProbe.hostAndPort("10.0.0.7:2181")).hasValueSatisfying(hp ->
            assertThat(hp).containsExactly("10.0.0.7", "2181"));
        assertThat(ServerProbe.hostAndPort("nonsense")).isEmpty();
    }

    @Test
    void aRecursiveWatcherHearsNoChildListEvents() {
        // servers before 3.9.0 send them when the session also has a child watch below, and an
        // older client jar passes them on: a recursive watch promises none
        assertThat(WatchesOp.deliversToRecursive(event(EventType.NodeChildrenChanged))).isFalse();
        assertThat(WatchesOp.deliversToRecursive(event(EventType.NodeCreated))).isTrue();
        assertThat(WatchesOp.deliversToRecursive(event(EventType.NodeDeleted))).isTrue();
        assertThat(WatchesOp.deliversToRecursive(event(EventType.NodeDataChanged))).isTrue();
        assertThat(WatchesOp.deliversToRecursive(new WatchedEvent(EventType.None, KeeperState.Disconnected, null)))
            .as("connection events").isTrue();
    }

    @Test
    void aMultiOfReadsHoldsAsManyNodesAsHalfAMegabyteOfReplyAllows() {
        assertThat(ReadOps.batchSize(64 * 1024)).isEqualTo(7);
        assertThat(ReadOps.batchSize(1024)).isEqualTo(455);
        assertThat(ReadOps.batchSize(1024 * 1024)).as("at least one").isEqualTo(1);
    }

    private static WatchedEvent event(EventType type) {
        return new WatchedEvent(type, KeeperState.SyncConnected, "/cache/a/b");
    }
}
