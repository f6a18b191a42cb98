package dev.baton.bench;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.zookeeper.AddWatchMode;
import org.apache.zookeeper.AsyncCallback;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;

/**
 * The floors of the config benchmark's propagation: a release with a history and a fence, on the plain
 * client. The writer sends the transaction a one-key release of the {@link Layout} sends (the key,
 * a new history entry next to the base or its slot, the deletion of the one past ten if any, the
 * fence, last); each watcher has a persistent recursive watch on the base (so it gets the key's
 * and, with the fence inside, the fence's events, as a store does; the history is outside), reads
 * the key and the fence in one multi of reads on the key's event, and counts the value as seen
 * when that answer arrives (the earliest a reader can know the release is whole). No bookkeeping,
 * no ordering checks: what any fenced reader of that layout pays at least. With the fence outside
 * the base a watcher is told of the key alone: one event per release, not two.
 *
 * <p>The raw release-shaped row is the current layout, {@link Layout#CURRENT}; the other layouts'
 * rows ({@link #NAMES}, {@link #LAYOUTS}) tell which layout change could bring a release to
 * Curator's {@code SharedValue}.
 */
final class ReleaseFloors {
    /** The rows of the other layouts' floors: a label of 7 characters, then what differs. */
    static final List<String> NAMES = List.of(
        "raw (a) fence outside: 1 event, 4-op multi",
        "raw (b) no delete: 3-op multi, 2 events",
        "raw (c) fence outside, no delete: 3-op, 1 ev",
        "raw (d) history slots, fence outside: 3 sets",
        "raw (0) as release-shaped, shuffled: control");
    /** The layouts of the rows of {@link #NAMES}, in the same order; the last, (0), is the control. */
    static final List<Layout> LAYOUTS = List.of(new Layout(false, true, false), new Layout(true, false, false),
        new Layout(false, false, false), new Layout(false, false, true), Layout.CURRENT);
    /** Floors made so far: each names its history entries apart from an earlier one's on the same base. */
    private static final AtomicLong SIDES_MADE = new AtomicLong();

    private ReleaseFloors() {
    }

    /**
     * A layout of a release: where the fence is, whether the transaction deletes the history entry
     * past ten, and how the history is kept.
     *
     * @param fenceInside the fence is {@code <base>/.releases}, inside the watched subtree (a watcher
     *     gets its event too); otherwise the fence is the history folder {@code <base>.history} itself,
     *     its data set by the transaction, outside the watched subtree (one event per one-key release)
     * @param delete the transaction also deletes the history entry past ten (else deletions are left
     *     out: a writer would delete old entries now and then, in a transaction of their own)
     * @param slots the history is ten nodes made once, {@code <base>.history/slot-<n mod 10>}, and a
     *     release sets the data of its slot (no create, no delete); else a release creates an entry
     */
    record Layout(boolean fenceInside, boolean delete, boolean slots) {
        /** The release's own layout: the fence inside, the oldest entry deleted, an entry created per release. */
        static final Layout CURRENT = new Layout(true, true, false);
    }

    /** The floor of {@code layout} under {@code base}: {@code clients.get(0)} writes, each other client watches. */
    static PropagationSide side(String name, List<ZooKeeper> clients, String base, Layout layout) throws Exception {
        ZooKeeper writer = clients.get(0);
        Clients.folder(writer, base);
        String key = base + "/k";
        String history = base + ".history";
        String fence = layout.fenceInside() ? base + "/.releases" : history;
        Clients.folder(writer, key);
        Clients.folder(writer, history);
        Clients.folder(writer, fence);
        if (layout.slots()) {
            for (int s = 0; s < 10; s++) {
                Clients.folder(writer, history + "/slot-" + s);
            }
        }
        long[] n = {0};
        // the compile-warm-up run and the N = 1 row share the base: entries of a side made earlier may still be there
        // (before, a run of more than 290 rounds failed on the N = 1 row with NodeExists)
        String entry = history + "/e-" + SIDES_MADE.incrementAndGet() + "-";
        PropagationSide side = new PropagationSide(name, value -> {
            n[0]++;
            List<Op> ops = new ArrayList<>();
            ops.add(Op.setData(key, value.getBytes(UTF_8), -1));
            // a history entry of about the size a one-key release writes, in a node of its own or in its slot
            if (layout.slots()) {
                ops.add(Op.setData(history + "/slot-" + (n[0] % 10), new byte[200], -1));
            } else {
                ops.add(Op.create(entry + n[0], new byte[200], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT));
            }
            if (layout.delete() && n[0] > 10) {
                ops.add(Op.delete(entry + (n[0] - 10), -1));
            }
            ops.add(Op.setData(fence, new byte[80], -1));
            writer.multi(ops);
        });
        for (int i = 1; i < clients.size(); i++) {
            int watcher = i - 1;
            ZooKeeper zk = clients.get(i);
            // one multi of reads, the key and the fence: with the fence inside, its answer came after both events of the transaction
            AsyncCallback.MultiCallback read = (rc, p, ctx, results) -> {
                if (rc == KeeperException.Code.OK.intValue() && results.get(0) instanceof OpResult.GetDataResult k) {
                    side.heard(watcher, new String(k.getData(), UTF_8));
                }
            };
            List<Op> reads = List.of(Op.getData(key), Op.getData(fence));
            zk.addWatch(base, event -> {
                if (key.equals(event.getPath())) {
                    zk.multi(reads, read, null);
                }
            }, AddWatchMode.PERSISTENT_RECURSIVE);
        }
        return side;
    }
}
