package dev.baton.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.awaitility.Awaitility;

/** Plain ZooKeeper clients for tests of the ensemble itself (the framework is not used here). */
final class ZooKeepers {
    private ZooKeepers() {
    }

    static ZooKeeper connect(String connectString, Duration sessionTimeout) throws IOException, InterruptedException {
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper zk = new ZooKeeper(connectString, (int) sessionTimeout.toMillis(), event -> {
            if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
            }
        });
        assertThat(connected.await(30, TimeUnit.SECONDS)).as("connected to %s", connectString).isTrue();
        return zk;
    }

    /** Waits until every server of {@code ensemble} serves and all report the same last zxid. */
    static void awaitInSync(EmbeddedEnsemble ensemble, Duration timeout) {
        Awaitility.await().atMost(timeout).until(() -> {
            Set<String> zxids = new HashSet<>();
            for (int id = 1; id <= ensemble.size(); id++) {
                if (!ensemble.role(id).isServing()) {
                    return false;
                }
                zxids.add(FourLetterWords.field(FourLetterWords.send(ensemble.clientPort(id), "srvr", Duration.ofSeconds(2)), "Zxid"));
            }
            return zxids.size() == 1 && !zxids.contains(null);
        });
    }
}
