package dev.baton.cli;

import dev.baton.cli.RecipeScan.Found;
import dev.baton.cli.RecipeScan.Kind;
import dev.baton.framework.BatonClient;
import dev.baton.framework.NoNodeException;
import dev.baton.framework.NodeOwner;
import dev.baton.framework.ZPaths;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import org.apache.zookeeper.data.Stat;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code baton queues [PATH]}: every queue under a path (SimpleDistributedQueue and
 * DistributedQueue, sharded and Curator's flat layout) with its depth, the age of its oldest
 * item, its dead letters and the receipts of the clients that consume it.
 *
 * <p>Depth counts the items in the queue folder and in every shard ({@code shard-<seq>}). The
 * oldest item is the lowest sequence number in the folder itself and in the oldest non-empty
 * shard (producers only move to newer shards, so no older item can be anywhere else): two reads,
 * whatever the depth. Dead letters are the queue's default {@code dead-letters} folder; a queue
 * built with another {@code deadLetterPath} keeps them where it was told.
 */
@Command(name = "queues",
    description = {"Show every queue under a path: depth, oldest item's age, dead letters.",
        "Show every queue under PATH (SimpleDistributedQueue and DistributedQueue, Baton's sharded layout and Curator's "
            + "flat one): how many items wait, how old the oldest is, how many dead letters its dead-letters folder holds, "
            + "and how many consumers' receipts are live."})
final class QueuesCommand implements Callable<Integer> {
    private static final Pattern SHARD = Pattern.compile("shard-\\d{10}");
    private static final Pattern ITEM = Pattern.compile("(qn-|queue-).*\\d{10}");

    @Mixin
    ConnectOptions connection;
    @Mixin
    Output output;
    @Spec
    CommandSpec spec;
    @Parameters(paramLabel = "PATH", arity = "0..1", defaultValue = "/",
        description = "Where to look, with everything below it (default: /, all but /zookeeper).")
    String path;

    /**
     * One queue.
     *
     * @param path its folder
     * @param depth items waiting
     * @param shards shard folders
     * @param oldestItemAgeMillis how long ago the oldest waiting item was put, or null when empty
     * @param oldestItem the oldest item's node, or null
     * @param deadLetters nodes in its {@code dead-letters} folder
     * @param receipts live consumers' receipts (DistributedQueue)
     */
    record Queue(String path, long depth, int shards, Long oldestItemAgeMillis, String oldestItem, int deadLetters, int receipts) {
    }

    /**
     * What {@code --json} prints.
     *
     * @param path where the command looked
     * @param queues every queue found, in path order
     */
    record Report(String path, List<Queue> queues) {
    }

    @Override
    public Integer call() throws InterruptedException {
        String root = TreeCommands.path(path);
        List<Queue> queues = new ArrayList<>();
        try (BatonClient client = connection.connect()) {
            for (Found found : RecipeScan.scan(client, root)) {
                if (found.kind() == Kind.QUEUE) {
                    Queue queue = read(client, found);
                    if (queue != null) {
                        queues.add(queue);
                    }
                }
            }
        }
        PrintWriter out = spec.commandLine().getOut();
        if (output.json) {
            Output.json(out, new Report(root, queues));
        } else if (queues.isEmpty()) {
            out.println("no queues under " + root);
        } else {
            Output.Table table = new Output.Table("QUEUE", "DEPTH", "OLDEST", "DEAD LETTERS", "CONSUMERS", "SHARDS");
            queues.forEach(q -> table.row(q.path(), q.depth(), q.oldestItemAgeMillis() == null ? null : Output.age(q.oldestItemAgeMillis()),
                q.deadLetters(), q.receipts(), q.shards()));
            table.print(out, "");
        }
        out.flush();
        return ExitCodes.OK;
    }

    /** The queue in {@code found}, or null if it is a guaranteed-mode lock folder (its "items" are ephemeral). */
    private static Queue read(BatonClient client, Found found) throws InterruptedException {
        List<String> flat = items(found.children());
        List<String> shards = found.children().stream().filter(c -> SHARD.matcher(c).matches()).sorted().toList();
        long depth = flat.size();
        List<String> oldestCandidates = new ArrayList<>();
        if (!flat.isEmpty()) {
            oldestCandidates.add(ZPaths.join(found.path(), flat.get(0)));
        }
        for (String shard : shards) {
            String shardPath = ZPaths.join(found.path(), shard);
            List<String> inShard;
            try {
                inShard = items(client.getChildren().forPath(shardPath));
            } catch (NoNodeException emptiedAndDeleted) {
                continue;
            }
            if (oldestCandidates.size() < (flat.isEmpty() ? 1 : 2) && !inShard.isEmpty()) {
                oldestCandidates.add(ZPaths.join(shardPath, inShard.get(0)));
            }
            depth += inShard.size();
        }
        Stat oldest = null;
        String oldestPath = null;
        for (String candidate : oldestCandidates) {
            Stat stat = client.checkExists().forPath(candidate);
            if (stat != null && NodeOwner.isEphemeral(stat)) {
                return null; // <lockPath>/<item> nodes of a guaranteed-mode queue: locks, not items
            }
            if (stat != null && (oldest == null || stat.getCtime() < oldest.getCtime())) {
                oldest = stat;
                oldestPath = candidate;
            }
        }
        return new Queue(found.path(), depth, shards.size(), oldest == null ? null : Math.max(0, System.currentTimeMillis() - oldest.getCtime()),
            oldestPath, count(client, ZPaths.join(found.path(), "dead-letters")), count(client, ZPaths.join(found.path(), "receipts")));
    }

    /** The item names among {@code children}, lowest sequence (oldest) first. */
    private static List<String> items(List<String> children) {
        return children.stream().filter(c -> ITEM.matcher(c).matches())
            .sorted(Comparator.comparing((String c) -> c.substring(c.length() - 10)).thenComparing(Comparator.naturalOrder())).toList();
    }

    private static int count(BatonClient client, String path) throws InterruptedException {
        Stat stat = client.checkExists().forPath(path);
        return stat == null ? 0 : stat.getNumChildren();
    }
}
