package dev.baton.framework.internal;

import dev.baton.framework.BatonException;
import dev.baton.framework.ExistsBuilder;
import dev.baton.framework.GetChildrenBuilder;
import dev.baton.framework.GetDataBuilder;
import dev.baton.framework.NodeChildren;
import dev.baton.framework.NodeData;
import dev.baton.framework.SyncBuilder;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.data.Stat;

/** The read operations: getData, checkExists, getChildren, and sync. */
final class ReadOps {
    private static final byte[] EMPTY = new byte[0];

    private ReadOps() {
    }

    /** getData: the data as its writer gave it, without the mark a session-protected create adds ({@link CreateMark}). */
    static final class GetData implements GetDataBuilder {
        private final NamespacedClient c;
        private Watcher watcher;

        GetData(NamespacedClient c) {
            this.c = c;
        }

        @Override
        public GetDataBuilder usingWatcher(Watcher w) {
            this.watcher = Objects.requireNonNull(w, "watcher");
            return this;
        }

        @Override
        public byte[] forPath(String path) throws InterruptedException {
            String full = c.prepare("getData", path, false);
            Watcher w = c.core.dispatching(watcher, c.namespace);
            return c.retry().call("getData", path, (zk, n) -> CreateMark.userData(full, orEmpty(zk.getData(full, w, null))));
        }

        @Override
        public NodeData forPathWithStat(String path) throws InterruptedException {
            String full = c.prepare("getData", path, false);
            Watcher w = c.core.dispatching(watcher, c.namespace);
            return c.retry().call("getData", path, (zk, n) -> {
                Stat stat = new Stat();
                byte[] data = zk.getData(full, w, stat);
                return new NodeData(CreateMark.userData(full, orEmpty(data)), stat);
            });
        }

        @Override
        public CompletableFuture<byte[]> forPathAsync(String path) {
            return forPathWithStatAsync(path).thenApply(NodeData::data);
        }

        @Override
        public CompletableFuture<NodeData> forPathWithStatAsync(String path) {
            String full;
            try {
                full = c.prepare("getData", path, false);
            } catch (BatonException e) {
                return CompletableFuture.failedFuture(e);
            }
            Watcher w = c.core.dispatching(watcher, c.namespace);
            return c.retry().callAsync("getData", path, (zk, n) -> c.zk().getData(zk, full, w, "getData", path)
                .thenApply(node -> {
                    byte[] data = CreateMark.userData(full, node.data());
                    return data == node.data() ? node : new NodeData(data, node.stat());
                }));
        }
    }

    static final class Exists implements ExistsBuilder {
        private final NamespacedClient c;
        private Watcher watcher;

        Exists(NamespacedClient c) {
            this.c = c;
        }

        @Override
        public ExistsBuilder usingWatcher(Watcher w) {
            this.watcher = Objects.requireNonNull(w, "watcher");
            return this;
        }

        @Override
        public Stat forPath(String path) throws InterruptedException {
            String full = c.prepare("checkExists", path, false);
            Watcher w = c.core.dispatching(watcher, c.namespace);
            return c.retry().call("checkExists", path, (zk, n) -> zk.exists(full, w));
        }

        @Override
        public CompletableFuture<Stat> forPathAsync(String path) {
            String full;
            try {
                full = c.prepare("checkExists", path, false);
            } catch (BatonException e) {
                return CompletableFuture.failedFuture(e);
            }
            Watcher w = c.core.dispatching(watcher, c.namespace);
            return c.retry().callAsync("checkExists", path, (zk, n) -> c.zk().exists(zk, full, w, "checkExists", path));
        }
    }

    static final class GetChildren implements GetChildrenBuilder {
        private final NamespacedClient c;
        private Watcher watcher;

        GetChildren(NamespacedClient c) {
            this.c = c;
        }

        @Override
        public GetChildrenBuilder usingWatcher(Watcher w) {
            this.watcher = Objects.requireNonNull(w, "watcher");
            return this;
        }

        @Override
        public List<String> forPath(String path) throws InterruptedException {
            String full = c.prepare("getChildren", path, false);
            Watcher w = c.core.dispatching(watcher, c.namespace);
            return c.retry().call("getChildren", path, (zk, n) -> zk.getChildren(full, w));
        }

        @Override
        public NodeChildren forPathWithStat(String path) throws InterruptedException {
            String full = c.prepare("getChildren", path, false);
            Watcher w = c.core.dispatching(watcher, c.namespace);
            return c.retry().call("getChildren", path, (zk, n) -> {
                Stat stat = new Stat();
                List<String> children = zk.getChildren(full, w, stat);
                return new NodeChildren(children, stat);
            });
        }

        @Override
        public CompletableFuture<List<String>> forPathAsync(String path) {
            return forPathWithStatAsync(path).thenApply(NodeChildren::children);
        }

        @Override
        public CompletableFuture<NodeChildren> forPathWithStatAsync(String path) {
            String full;
            try {
                full = c.prepare("getChildren", path, false);
            } catch (BatonException e) {
                return CompletableFuture.failedFuture(e);
            }
            Watcher w = c.core.dispatching(watcher, c.namespace);
            return c.retry().callAsync("getChildren", path, (zk, n) -> c.zk().getChildren(zk, full, w, "getChildren", path));
        }
    }

    static final class Sync implements SyncBuilder {
        private final NamespacedClient c;

        Sync(NamespacedClient c) {
            this.c = c;
        }

        @Override
        public void forPath(String path) throws InterruptedException {
            String full = c.prepare("sync", path, false);
            c.retry().call("sync", path, (zk, n) -> {
                zk.sync(full);
                return null;
            });
        }

        @Override
        public CompletableFuture<Void> forPathAsync(String path) {
            String full;
            try {
                full = c.prepare("sync", path, false);
            } catch (BatonException e) {
                return CompletableFuture.failedFuture(e);
            }
            return c.retry().callAsync("sync", path, (zk, n) -> c.zk().sync(zk, full, "sync", path));
        }
    }

    static byte[] orEmpty(byte[] data) {
        return data == null ? EMPTY : data;
    }
}
