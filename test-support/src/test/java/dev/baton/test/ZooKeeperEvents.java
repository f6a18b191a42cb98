package dev.baton.test;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher.Event.KeeperState;
import org.apache.zookeeper.ZooKeeper;

/** A plain ZooKeeper client that records its connection states, for tests of the fault kit. */
final class ZooKeeperEvents implements AutoCloseable {
    final ZooKeeper zk;
    private final BlockingQueue<KeeperState> states = new LinkedBlockingQueue<>();

    ZooKeeperEvents(String connectString, Duration sessionTimeout) throws IOException {
        this.zk = new ZooKeeper(connectString, (int) sessionTimeout.toMillis(), this::record);
    }

    private void record(WatchedEvent event) {
        if (event.getType() == org.apache.zookeeper.Watcher.Event.EventType.None) {
            states.add(event.getState());
        }
    }

    /** Waits for {@code expected}, skipping other states; fails if it does not come within {@code timeout}. */
    void awaitState(KeeperState expected, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            long left = deadline - System.nanoTime();
            KeeperState next = left > 0 ? states.poll(left, TimeUnit.NANOSECONDS) : null;
            if (next == null) {
                throw new AssertionError("no " + expected + " event within " + timeout);
            }
            if (next == expected) {
                return;
            }
        }
    }

    @Override
    public void close() throws InterruptedException {
        zk.close();
    }
}
