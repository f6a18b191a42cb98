package dev.baton.framework.internal;

import dev.baton.framework.BatonException;
import dev.baton.framework.ExistsBuilder;
import dev.baton.framework.Failures;
import dev.baton.framework.Futures;
import dev.baton.framework.ServerCapabilities;
import dev.baton.framework.ZooKeeperException;
import dev.baton.framework.GetChildrenBuilder;
import dev.baton.framework.GetDataBuilder;
import dev.baton.framework.NodeChildren;
import dev.baton.framework.NodeData;
import dev.baton.framework.SyncBuilder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;
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
        public Map<String, NodeData> forPaths(List<String> paths, int maxNodeBytes) throws InterruptedException {
            return Futures.await(forPathsAsync(paths, maxNodeBytes));
        }

        @Override
        public CompletableFuture<Map<String, NodeData>> forPathsAsync(List<String> paths, int maxNodeBytes) {
            List<String> distinct;
            List<String> fulls = new ArrayList<>();
            try {
                Objects.requireNonNull(paths, "paths");
                if (maxNodeBytes < 1) {
                    throw new IllegalArgumentException("maxNodeBytes must be positive, was " + maxNodeBytes);
                }
                distinct = withoutRepeats(paths);
                for (String path : distinct) {
                    fulls.add(c.prepare("getData", path, false));
                }
            } catch (RuntimeException e) {
                return CompletableFuture.failedFuture(e);
            }
            boolean batched = watcher == null && distinct.size() > 1
                && c.core.capabilities().supports(ServerCapabilities.Feature.MULTI_READ);
            List<CompletableFuture<List<NodeData>>> parts = new ArrayList<>();
            int step = batched ? batchSize(maxNodeBytes) : distinct.size();
            for (int from = 0; from < distinct.size(); from += step) {
                int to = Math.min(distinct.size(), from + step);
                List<String> users = distinct.subList(from, to);
                List<String> servers = fulls.subList(from, to);
                parts.add(batched ? batch(users, servers) : oneByOne(users));
            }
            if (parts.size() == 1) {
                return parts.get(0).thenApply(v -> found(distinct, parts)); // one stage fewer than allOf of one
            }
            return CompletableFuture.allOf(parts.toArray(CompletableFuture[]::new)).thenApply(v -> found(distinct, parts));
        }

        /** {@code paths} in the order given, each once (two different paths are told apart without a set). */
        private static List<String> withoutRepeats(List<String> paths) {
            List<String> copy = List.copyOf(paths);
            boolean mayRepeat = copy.size() > 2 || copy.size() == 2 && copy.get(0).equals(copy.get(1));
            return mayRepeat ? List.copyOf(new LinkedHashSet<>(copy)) : copy;
        }

        /** The existing nodes of the answered {@code parts} by path, in the order of {@code distinct}. */
        private static Map<String, NodeData> found(List<String> distinct, List<CompletableFuture<List<NodeData>>> parts) {
            Map<String, NodeData> found = new LinkedHashMap<>();
            int i = 0;
            for (CompletableFuture<List<NodeData>> part : parts) {
                for (NodeData node : part.join()) {
                    String path = distinct.get(i++);
                    if (node != null) {
                        found.put(path, node);
                    }
                }
            }
            return found;
        }

        /** One read per node, sent together; null for a node that does not exist. */
        private CompletableFuture<List<NodeData>> oneByOne(List<String> users) {
            List<CompletableFuture<NodeData>> reads = users.stream()
                .map(path -> Futures.nullIfNoNode(forPathWithStatAsync(path)))
                .toList();
            return CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new))
                .thenApply(v -> reads.stream().map(CompletableFuture::join).toList());
        }

        /**
         * The nodes' data in one multi of reads; one by one if the server refuses the multi, or if
         * the multi's attempt failed for connection trouble. The batch is sized from the caller's
         * maxNodeBytes, which is only a promise: nodes larger than that (written by a client with
         * a higher limit) can make the reply pass the client's packet limit (jute.maxbuffer), and
         * the client then drops the connection. Sending the same multi again would drop it again,
         * so the nodes are read alone instead, each with its own retries.
         */
        private CompletableFuture<List<NodeData>> batch(List<String> users, List<String> servers) {
            List<Op> ops = new ArrayList<>(servers.size());
            for (String server : servers) {
                ops.add(Op.getData(server));
            }
            return c.retry().callAsync("getData", users.get(0), (zk, n) -> n == 0
                    ? c.zk().multi(zk, ops, "getData", users.get(0))
                    : CompletableFuture.failedFuture(new ResendRefused()))
                .thenApply(results -> {
                    List<NodeData> nodes = new ArrayList<>();
                    for (int i = 0; i < results.size(); i++) {
                        OpResult r = results.get(i);
                        if (r instanceof OpResult.GetDataResult read) {
                            byte[] data = CreateMark.userData(servers.get(i), orEmpty(read.getData()));
                            nodes.add(new NodeData(data, read.getStat()));
                        } else if (r instanceof OpResult.ErrorResult error && error.getErr() == KeeperException.Code.NONODE.intValue()) {
                            nodes.add(null);
                        } else {
                            int rc = r instanceof OpResult.ErrorResult error ? error.getErr() : KeeperException.Code.SYSTEMERROR.intValue();
                            throw Errors.of(rc, "getData", users.get(i));
                        }
                    }
                    return nodes;
                })
                .exceptionallyCompose(e -> {
                    Throwable cause = Failures.unwrap(e);
                    if (cause instanceof ZooKeeperException z && z.code() == KeeperException.Code.UNIMPLEMENTED) {
                        c.core.refused(ServerCapabilities.Feature.MULTI_READ);
                        return oneByOne(users);
                    }
                    if (cause instanceof ResendRefused) {
                        return oneByOne(users);
                    }
                    return CompletableFuture.failedFuture(cause);
                });
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

    /**
     * A multi of reads is not sent a second time: not a {@link BatonException}, so the retry loop
     * passes it on at once instead of retrying.
     */
    private static final class ResendRefused extends RuntimeException {
        private static final long serialVersionUID = 1L;

        ResendRefused() {
            super("a multi of reads is sent once", null, false, false);
        }
    }

    /** What one multi of reads may bring back, at most: half a ZooKeeper client's default packet limit. */
    static final int MULTI_READ_REPLY_BUDGET = 512 * 1024;

    /** How many reads of nodes of at most {@code maxNodeBytes} go in one multi. */
    static int batchSize(int maxNodeBytes) {
        return Math.max(1, MULTI_READ_REPLY_BUDGET / Math.max(1, maxNodeBytes + 128)); // + stat and framing
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
