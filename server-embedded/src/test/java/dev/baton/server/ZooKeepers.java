package dev.baton.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;

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
}
