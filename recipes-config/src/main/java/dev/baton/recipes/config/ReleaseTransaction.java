package dev.baton.recipes.config;

import dev.baton.framework.BatonClient;
import dev.baton.framework.DataTooLargeException;
import dev.baton.framework.NodeData;
import dev.baton.framework.TransactionBuilder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.zookeeper.CreateMode;

/** Builds a release's one ZooKeeper transaction from the state it starts from (see {@link Releases}). */
final class ReleaseTransaction {
    private static final byte[] EMPTY = new byte[0];

    private final BatonClient client;
    private final Keys keys;
    private final int keep;

    ReleaseTransaction(BatonClient client, Keys keys, int keep) {
        this.client = client;
        this.keys = keys;
        this.keep = keep;
    }

    /**
     * The transaction of {@code release} (see {@link Releases}): deletes (deepest first), sets and
     * creates, the history entry and the entries past {@code keep}, checks of keys asked for and
     * left out, and, last, the fence at the version {@code state} read.
     *
     * @throws ReleaseTooLargeException if a value is over the servers' size limit
     */
    TransactionBuilder build(Release release, String id, ReleaseState state, Set<String> asked) {
        TransactionBuilder tx = client.transaction();
        try {
            if (state.fence() == null) {
                tx.create(keys.fence(), EMPTY);
            }
            List<Release.Change> removals = new ArrayList<>();
            List<Release.Change> writes = new ArrayList<>();
            release.changes().forEach(c -> (c.after().isPresent() ? writes : removals).add(c));
            Map<String, Integer> deletes = new HashMap<>();
            for (Release.Change c : removals) {
                deletes.put(keys.path(c.key()), state.values().get(c.key()).stat().getVersion());
            }
            deletes.putAll(emptiedFolders(state, deletes.keySet(), writes));
            // the deepest first (a child's path is longer than its parent's), so a key and the keys under it go together
            List<String> order = new ArrayList<>(deletes.keySet());
            order.sort(Comparator.comparingInt(String::length).reversed());
            for (String path : order) {
                tx.delete(path, deletes.get(path));
            }
            // after the deletions that empty them: a container holding a value becomes a plain node with that value
            Map<String, byte[]> remade = valuedFoldersEmptied(state, deletes.keySet(), writes);
            remade.forEach((folder, value) -> {
                tx.delete(folder, state.folders().get(folder).node().stat().getVersion());
                tx.create(folder, value);
            });
            writes.sort(Comparator.comparingInt(c -> c.key().length()));
            Set<String> present = new HashSet<>(state.existingFolders());
            for (Release.Change c : writes) {
                String path = keys.path(c.key());
                NodeData now = state.values().get(c.key());
                if (remade.containsKey(path)) {
                    continue; // made again above, with this value
                }
                if (now != null) {
                    tx.setData(path, c.after().get(), now.stat().getVersion());
                } else {
                    for (String folder : keys.ancestors(c.key())) {
                        if (present.add(folder)) {
                            tx.create(folder, EMPTY, CreateMode.CONTAINER);
                        }
                    }
                    tx.create(path, c.after().get());
                    present.add(path);
                }
            }
            // the history next to the base, out of the watched subtree: watchers get no event of it
            if (!state.historyFolder()) {
                tx.create(keys.history(), EMPTY);
            }
            tx.create(keys.historyEntry(release.number()), ReleaseCodec.entry(release, id));
            long oldest = release.number();
            for (Map.Entry<Long, String> entry : state.history().entrySet()) {
                long n = entry.getKey();
                if (n <= release.number() - keep) {
                    tx.delete(entry.getValue());
                } else {
                    oldest = Math.min(oldest, n);
                }
            }
            if (state.local() && asked.size() > release.changes().size()) {
                // a key left out as already at its value was so in the local snapshot: make sure it still is
                Set<String> changed = new HashSet<>(release.keys());
                for (String key : asked) {
                    NodeData now = state.values().get(key);
                    if (now != null && !changed.contains(key)) {
                        tx.check(keys.path(key), now.stat().getVersion());
                    }
                }
            }
            // last: every other event of the transaction reaches watchers before the fence's
            tx.setData(keys.fence(), ReleaseCodec.fence(release.number(), id, release.time(), oldest,
                    state.moved() >= 1 ? Math.min(state.moved(), release.number()) : release.number()),
                state.fence() == null ? 0 : state.fence().stat().getVersion());
        } catch (DataTooLargeException e) {
            throw new ReleaseTooLargeException(keys.base(), release.number(), release.changes().size(), e);
        }
        return tx;
    }

    /**
     * The folders above removed keys that hold a value (after the release) and that the release
     * leaves without a child, each with that value. The store makes folders as container nodes,
     * and the servers delete an empty container whatever its data, so such a key (a folder made
     * for a nested key, given a value later) would be lost with no release saying so. Clients
     * cannot tell a container from a plain node (ZooKeeper shows both with ephemeral owner 0), so
     * every such folder is deleted (at the version read) and made again as a plain node with its
     * value, after the deletions that empty it, in the same transaction. Watchers see the key at
     * that value throughout, at a new version.
     */
    private Map<String, byte[]> valuedFoldersEmptied(ReleaseState state, Set<String> gone, List<Release.Change> writes) {
        if (state.folders().isEmpty()) {
            return Map.of();
        }
        Map<String, byte[]> written = new HashMap<>();
        for (Release.Change c : writes) {
            written.put(keys.path(c.key()), c.after().get());
        }
        Map<String, byte[]> out = new LinkedHashMap<>();
        state.folders().forEach((folder, f) -> {
            byte[] value = written.getOrDefault(folder, f.node().data());
            boolean childWritten = written.keySet().stream().anyMatch(path -> path.startsWith(folder + "/"));
            if (!gone.contains(folder) && value.length > 0 && !childWritten
                && f.children().stream().allMatch(child -> gone.contains(folder + "/" + child))) {
                out.put(folder, value);
            }
        });
        return out;
    }

    /**
     * The folders above removed keys that the release leaves empty (no data, no child left or
     * created), deepest first, with their versions: they go in the same transaction, so removing
     * a nested key leaves no empty folder that would read as an empty key.
     */
    private Map<String, Integer> emptiedFolders(ReleaseState state, Set<String> deleted, List<Release.Change> writes) {
        if (state.folders().isEmpty()) {
            return Map.of(); // the usual release: nothing removed, no folder read (and none from the local snapshot)
        }
        Set<String> gone = new HashSet<>(deleted);
        Set<String> written = new HashSet<>();
        for (Release.Change c : writes) {
            String path = keys.path(c.key());
            written.add(path);
            written.addAll(Arrays.asList(keys.ancestors(c.key())));
        }
        List<String> candidates = new ArrayList<>(state.folders().keySet());
        candidates.sort(Comparator.comparingInt(String::length).reversed());
        Map<String, Integer> out = new LinkedHashMap<>();
        for (String folder : candidates) {
            ReleaseState.Folder f = state.folders().get(folder);
            if (gone.contains(folder) || written.contains(folder) || f.node().data().length > 0) {
                continue;
            }
            boolean empty = f.children().stream().allMatch(child -> gone.contains(folder + "/" + child));
            if (empty) {
                out.put(folder, f.node().stat().getVersion());
                gone.add(folder);
            }
        }
        return out;
    }
}
