package dev.baton.bench;

import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;

/**
 * ZooKeeper's shared-lock recipe written straight on the plain client, for one thread: the limit
 * a read/write lock library reaches when it adds nothing to the requests.
 *
 * <p>Either side creates an ephemeral-sequential node ({@code read-} or {@code write-}) and lists
 * the lock's children. A reader holds when no writer's node comes before its own, else it watches
 * the nearest writer's node before it; a writer holds when its node is first, else it watches the
 * node just before its own. Once the watched node is gone it lists again. Release deletes the node.
 * With writers only it is ZooKeeper's exclusive lock recipe, the mutex benchmark's limit. No
 * retries, no re-entrance: a benchmark's baseline, not a lock to use.
 */
final class RawReadWriteLock {
    private static final String READ = "read-";
    private static final String WRITE = "write-";
    private static final Comparator<String> BY_SEQUENCE = Comparator.comparing(name -> name.substring(name.length() - 10));

    private final ZooKeeper zk;
    private final String dir;
    private String node;

    /** A lock on {@code dir}, which must exist. */
    RawReadWriteLock(ZooKeeper zk, String dir) {
        this.zk = zk;
        this.dir = dir;
    }

    void acquireRead() throws KeeperException, InterruptedException {
        acquire(READ);
    }

    void acquireWrite() throws KeeperException, InterruptedException {
        acquire(WRITE);
    }

    void release() throws KeeperException, InterruptedException {
        zk.delete(node, -1);
        node = null;
    }

    private void acquire(String side) throws KeeperException, InterruptedException {
        node = zk.create(dir + "/" + side, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL_SEQUENTIAL);
        String mine = node.substring(dir.length() + 1);
        while (true) {
            List<String> children = zk.getChildren(dir, false);
            children.sort(BY_SEQUENCE);
            int at = children.indexOf(mine);
            String blocker = null;
            if (side.equals(WRITE)) {
                blocker = at == 0 ? null : children.get(at - 1);
            } else {
                for (int i = at - 1; i >= 0 && blocker == null; i--) {
                    if (children.get(i).startsWith(WRITE)) {
                        blocker = children.get(i);
                    }
                }
            }
            if (blocker == null) {
                return;
            }
            CountDownLatch gone = new CountDownLatch(1);
            if (zk.exists(dir + "/" + blocker, event -> gone.countDown()) != null) {
                gone.await();
            }
        }
    }
}
