package dev.baton.cli;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.baton.framework.BatonClient;
import dev.baton.framework.NoNodeException;
import dev.baton.framework.NodeData;
import dev.baton.framework.ZPaths;
import dev.baton.framework.contention.Contenders;
import dev.baton.framework.contention.Decision;
import dev.baton.recipes.lock.InterProcessMutex;
import dev.baton.recipes.lock.InterProcessSemaphoreV2;
import dev.baton.recipes.rwlock.ReadWriteRules;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.regex.Pattern;
import org.apache.zookeeper.data.Stat;

/**
 * Finds the recipes under a path by the znode layouts they leave (DESIGN.md's table, Curator's
 * layouts) and reads their lines: who holds, who waits, in order.
 *
 * <p>The walk lists each folder once and recognises what its children are: {@code lock-}
 * nodes (an InterProcessMutex, or a LeaderSelector: the layouts are the same), {@code latch-}
 * (a LeaderLatch), {@code __READ__}/{@code __WRIT__} (a read/write lock), {@code x-<id>-<seq>}
 * (ZooKeeper's WriteLock), a {@code leases} folder (a semaphore), and a queue's shards, items and
 * dead letters. It never descends into a sequential node (a lock's, a latch's, a queue item's): an
 * item cannot be a folder of recipes, and a queue of 100,000 items must not cost 100,000 reads.
 *
 * <p>What it reads is a snapshot taken node by node, not one atomic view: a node that goes while
 * the scan reads its line is left out and the line is judged without it.
 */
final class RecipeScan {
    /** ZooKeeper's own subtree: quotas and config, never a recipe. */
    private static final String ZOOKEEPER = "/zookeeper";
    /** A name ending in ZooKeeper's 10-digit sequence counter. */
    private static final Pattern SEQUENTIAL = Pattern.compile(".*\\d{10}$");
    private static final Pattern WRITE_LOCK = Pattern.compile("x-.+-(\\d{10})$");
    private static final Pattern SHARD = Pattern.compile("shard-\\d{10}");
    private static final Pattern QUEUE_ITEM = Pattern.compile("(qn-|queue-).*\\d{10}");
    /** How many listings the walk has in flight at most. */
    private static final int BATCH = 500;
    private static final String DEAD_LETTERS = "dead-letters";
    private static final String RECEIPTS = "receipts";
    private static final Set<String> MUTEX = Set.of(InterProcessMutex.MARKER);
    /** A LeaderLatch's marker, Curator's and Baton's alike (DESIGN.md's layout table). */
    private static final Set<String> LATCH = Set.of("latch-");

    /** What a folder's children make it. */
    enum Kind {
        MUTEX("mutex"), READ_WRITE("rwlock"), SEMAPHORE("semaphore"), WRITE_LOCK("writelock"), LATCH("latch"), QUEUE("queue");

        final String label;

        Kind(String label) {
            this.label = label;
        }
    }

    /** A recognised recipe folder and its children's names, as listed. */
    record Found(String path, Kind kind, List<String> children) {
    }

    /**
     * One node in a line.
     *
     * @param node the node's name
     * @param state {@code holds}, {@code waits}, or for a semaphore's newest lease whose owner still
     *     counts the leases, {@code counting}
     * @param session the owning session, {@code 0x}-hex
     * @param ageMillis how long ago the node was made (server clock against this machine's)
     * @param token the node's creation zxid: the fencing token of a lock or the term of a leader
     * @param data the node's data as text (a participant id, a process's name), empty when none
     */
    record Contender(String node, String state, String session, long ageMillis, long token, String data) {
        boolean holds() {
            return state.equals("holds");
        }
    }

    private RecipeScan() {
    }

    /**
     * Every recipe folder under {@code root} (itself included), in path order.
     *
     * <p>The tree is listed a level at a time, every folder of a level at once (in batches of
     * {@value #BATCH}): a tree of many small folders, such as discovery's instances, costs a few
     * round trips per level rather than one per folder.
     *
     * @throws CliExit with {@link ExitCodes#NOT_ACQUIRED} when {@code root} does not exist
     */
    static List<Found> scan(BatonClient client, String root) throws InterruptedException {
        Map<String, List<String>> level = new LinkedHashMap<>();
        try {
            level.put(root, client.getChildren().forPath(root));
        } catch (NoNodeException e) {
            throw new CliExit(ExitCodes.NOT_ACQUIRED, "no node " + root);
        }
        List<Found> found = new ArrayList<>();
        while (!level.isEmpty()) {
            List<String> below = new ArrayList<>();
            for (Map.Entry<String, List<String>> folder : level.entrySet()) {
                List<String> children = new ArrayList<>(folder.getValue());
                children.sort(null);
                Kind kind = kindOf(children);
                if (kind != null) {
                    found.add(new Found(folder.getKey(), kind, children));
                }
                for (String child : children) {
                    String path = ZPaths.join(folder.getKey(), child);
                    if (!path.equals(ZOOKEEPER) && !SEQUENTIAL.matcher(child).matches() && !consumed(kind, child)) {
                        below.add(path);
                    }
                }
            }
            level = list(client, below);
        }
        found.sort(Comparator.comparing(Found::path));
        return found;
    }

    /** The children of each of {@code paths}, asked for together; a folder deleted meanwhile is left out. */
    private static Map<String, List<String>> list(BatonClient client, List<String> paths) throws InterruptedException {
        Map<String, List<String>> listed = new LinkedHashMap<>();
        for (int from = 0; from < paths.size(); from += BATCH) {
            List<String> batch = paths.subList(from, Math.min(paths.size(), from + BATCH));
            List<CompletableFuture<List<String>>> replies = new ArrayList<>();
            for (String path : batch) {
                replies.add(client.getChildren().forPathAsync(path));
            }
            for (int i = 0; i < batch.size(); i++) {
                try {
                    listed.put(batch.get(i), replies.get(i).get());
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof NoNodeException) {
                        continue; // deleted while we walked
                    }
                    if (e.getCause() instanceof RuntimeException failure) {
                        throw failure;
                    }
                    throw new IllegalStateException("listing " + batch.get(i) + " failed", e.getCause());
                }
            }
        }
        return listed;
    }

    /** The folders a recipe keeps for itself: read with the recipe, not as recipes of their own. */
    private static boolean consumed(Kind kind, String child) {
        return kind == Kind.SEMAPHORE && (child.equals(InterProcessSemaphoreV2.LEASES) || child.equals(InterProcessSemaphoreV2.LOCKS))
            || kind == Kind.QUEUE && (child.equals(DEAD_LETTERS) || child.equals(RECEIPTS));
    }

    /** What {@code children} (one folder's) make it, or null for an ordinary folder. */
    static Kind kindOf(List<String> children) {
        if (children.contains(InterProcessSemaphoreV2.LEASES)) {
            return Kind.SEMAPHORE;
        }
        boolean mutex = false;
        boolean latch = false;
        boolean writeLock = false;
        boolean queue = false;
        for (String child : children) {
            if (Contenders.markerOf(child, ReadWriteRules.MARKERS) != null) {
                return Kind.READ_WRITE;
            }
            mutex |= Contenders.markerOf(child, MUTEX) != null;
            latch |= Contenders.markerOf(child, LATCH) != null;
            writeLock |= WRITE_LOCK.matcher(child).matches();
            queue |= SHARD.matcher(child).matches() || QUEUE_ITEM.matcher(child).matches();
        }
        return mutex ? Kind.MUTEX : latch ? Kind.LATCH : writeLock ? Kind.WRITE_LOCK : queue ? Kind.QUEUE : null;
    }

    /**
     * The line of a lock or election folder, holders first then waiters, each judged by its
     * recipe's rule over the nodes that were still there when read.
     */
    static List<Contender> line(BatonClient client, Found folder) throws InterruptedException {
        return switch (folder.kind()) {
            case MUTEX -> judged(client, folder.path(), Contenders.inOrder(folder.children(), MUTEX), Kind.MUTEX);
            case LATCH -> judged(client, folder.path(), Contenders.inOrder(folder.children(), LATCH), Kind.LATCH);
            case READ_WRITE -> judged(client, folder.path(), Contenders.inOrder(folder.children(), ReadWriteRules.MARKERS), Kind.READ_WRITE);
            case WRITE_LOCK -> judged(client, folder.path(), folder.children().stream().filter(c -> WRITE_LOCK.matcher(c).matches())
                .sorted(Comparator.comparing((String c) -> c.substring(c.length() - 10)).thenComparing(Comparator.naturalOrder()))
                .toList(), Kind.WRITE_LOCK);
            case SEMAPHORE -> semaphore(client, folder.path());
            case QUEUE -> throw new IllegalArgumentException(folder.path() + " is a queue, which has no line");
        };
    }

    private record Read(String name, NodeData node) {
    }

    /** The line as a table: position, state, session, age, token, node, data. */
    static void print(PrintWriter out, List<Contender> line) {
        Output.Table table = new Output.Table("#", "STATE", "SESSION", "AGE", "TOKEN", "NODE", "DATA");
        for (int i = 0; i < line.size(); i++) {
            Contender c = line.get(i);
            table.row(i + 1, c.state(), c.session(), Output.age(c.ageMillis()), c.token(), c.node(), Output.cell(c.data(), 40));
        }
        table.print(out, "  ");
    }

    private static List<Contender> judged(BatonClient client, String path, List<String> ordered, Kind kind) throws InterruptedException {
        List<Read> present = read(client, path, ordered);
        List<String> names = present.stream().map(Read::name).toList();
        List<Contender> line = new ArrayList<>();
        long now = System.currentTimeMillis();
        for (int i = 0; i < present.size(); i++) {
            boolean holds = switch (kind) {
                case READ_WRITE -> decide(names, i).holds();
                default -> i == 0;
            };
            line.add(contender(present.get(i), holds ? "holds" : "waits", now));
        }
        return line;
    }

    private static Decision decide(List<String> names, int i) {
        return ReadWriteRules.isWriter(names.get(i)) ? ReadWriteRules.write(names, i) : ReadWriteRules.read(names, i);
    }

    /**
     * A semaphore: every node in {@code leases} is a lease held, except the newest one when its
     * owner also heads the internal mutex's line in {@code locks}: that owner is still counting
     * the leases and may be waiting for one to be returned ({@code maxLeases} is not stored, so
     * which it is cannot be read). The others in {@code locks} wait, in order.
     */
    private static List<Contender> semaphore(BatonClient client, String path) throws InterruptedException {
        String leasesPath = ZPaths.join(path, InterProcessSemaphoreV2.LEASES);
        String locksPath = ZPaths.join(path, InterProcessSemaphoreV2.LOCKS);
        List<Read> leases = read(client, leasesPath, Contenders.inOrder(children(client, leasesPath), Set.of(InterProcessSemaphoreV2.LEASE_MARKER)));
        List<Read> locks = read(client, locksPath, Contenders.inOrder(children(client, locksPath), MUTEX));
        long counter = locks.isEmpty() ? -1 : locks.get(0).node().stat().getEphemeralOwner();
        long now = System.currentTimeMillis();
        List<Contender> line = new ArrayList<>();
        for (int i = 0; i < leases.size(); i++) {
            Read lease = leases.get(i);
            boolean counting = i == leases.size() - 1 && lease.node().stat().getEphemeralOwner() == counter;
            line.add(contender(lease, counting ? "counting" : "holds", now));
        }
        boolean headCounting = !line.isEmpty() && line.get(line.size() - 1).state().equals("counting");
        for (int i = headCounting ? 1 : 0; i < locks.size(); i++) {
            line.add(contender(locks.get(i), "waits", now));
        }
        return line;
    }

    private static List<String> children(BatonClient client, String path) throws InterruptedException {
        try {
            return client.getChildren().forPath(path);
        } catch (NoNodeException e) {
            return List.of();
        }
    }

    private static List<Read> read(BatonClient client, String path, List<String> ordered) throws InterruptedException {
        List<Read> present = new ArrayList<>();
        for (String name : ordered) {
            try {
                present.add(new Read(name, client.getData().forPathWithStat(ZPaths.join(path, name))));
            } catch (NoNodeException gone) {
                // left the line while we read it
            }
        }
        return present;
    }

    private static Contender contender(Read read, String state, long now) {
        Stat stat = read.node().stat();
        return new Contender(read.name(), state, Output.hex(stat.getEphemeralOwner()), now - stat.getCtime(), stat.getCzxid(),
            new String(read.node().data(), UTF_8));
    }
}
