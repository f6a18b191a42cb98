package dev.baton.bench;

import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;

/**
 * ZooKeeper's own lock recipe written straight on the plain client, for one thread: the limit a
 * lock library reaches under contention when it adds nothing to the requests.
 *
 * <p>Acquire creates an ephemeral-sequential node, lists the lock's children, and either holds
 * (its node is first) or watches the node just before its own and lists again once that is gone.
 * Release deletes the node. No retries, no connection handling, no re-entrance: a benchmark's
 * baseline, not a lock to use.
 */
final class RawMutex {
    private final ZooKeeper zk;
    private final String dir;
    private String node;

    /** A lock on {@code dir}, which must exist. */
    RawMutex(ZooKeeper zk, String dir) {
        this.zk = zk;
        this.dir = dir;
    }

    void acquire() throws KeeperException, InterruptedException {
        node = zk.create(dir + "/lock-", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL_SEQUENTIAL);
        String mine = node.substring(dir.length() + 1);
        while (true) {
            List<String> children = zk.getChildren(dir, false);
            // one prefix and a zero-padded sequence: name order is ticket order
            Collections.sort(children);
            int at = children.indexOf(mine);
            if (at == 0) {
                return;
            }
            CountDownLatch gone = new CountDownLatch(1);
            if (zk.exists(dir + "/" + children.get(at - 1), event -> gone.countDown()) != null) {
                gone.await();
            }
        }
    }

    void release() throws KeeperException, InterruptedException {
        zk.delete(node, -1);
        node = null;
    }
}
