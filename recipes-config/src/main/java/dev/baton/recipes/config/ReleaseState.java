package dev.baton.recipes.config;

import dev.baton.framework.NodeData;
import dev.baton.framework.cache.ChildData;
import dev.baton.framework.cache.SnapshotCache;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What a commit starts from: read from the servers, or taken from the local snapshot (then
 * {@code local}); either way every write is checked against it by version in the transaction.
 *
 * @param history the history entries that exist: number to path (next to the base, or under
 *     the fence for entries written in the first layout)
 * @param historyFolder whether the history's folder next to the base exists
 * @param moved the first release whose entry is in that folder (the fence's "moved")
 */
record ReleaseState(boolean local, boolean baseExists, NodeData fence, ReleaseCodec.Fence current, Map<Long, String> history,
                    boolean historyFolder, long moved, Map<String, NodeData> values, Set<String> existingFolders,
                    Map<String, Folder> folders) {
    /** A folder above a removed key, as read: it goes with the release if the release empties it. */
    record Folder(NodeData node, List<String> children) {
    }

    /**
     * The state as {@code snapshot} has it, or null when there is none (store not started), its
     * fence does not say which history entries exist, or it is older than {@code lastCommitted}
     * (this writer's latest release).
     */
    static ReleaseState fromSnapshot(Keys keys, int keep, ConfigSnapshot snapshot, long lastCommitted, Map<String, Optional<byte[]>> changes) {
        SnapshotCache.Snapshot raw = snapshot == null ? null : snapshot.nodes();
        if (raw == null) {
            return null;
        }
        ChildData fenceNode = raw.nodes().get(keys.fence());
        // the store parsed this snapshot's fence when it made it: not again on every release
        ReleaseCodec.Fence at = snapshot.fence();
        // a fence of the first layout (no "moved") does not say where the entries are: the servers' listings do
        if ((fenceNode != null && (at.oldest() < 1 || at.moved() < 1)) || at.release() < lastCommitted) {
            return null;
        }
        // of the entries the fence says exist, the transaction needs only those it deletes and the oldest it keeps
        // (for the fence's "oldest"): not a path for each of the kept ones on every release
        Map<Long, String> history = new HashMap<>();
        if (fenceNode != null) {
            long firstKept = Math.max(at.oldest(), at.release() + 1 - keep + 1);
            for (long n = at.oldest(); n <= Math.min(at.release(), firstKept); n++) {
                history.put(n, n >= at.moved() ? keys.historyEntry(n) : keys.legacyHistoryEntry(n));
            }
        }
        Map<String, NodeData> values = new HashMap<>();
        Set<String> existing = new HashSet<>();
        for (Map.Entry<String, Optional<byte[]>> change : changes.entrySet()) {
            ChildData node = raw.nodes().get(keys.path(change.getKey()));
            if (change.getValue().isEmpty() && (node == null || keys.ancestors(change.getKey()).length > 0)) {
                // absent here, perhaps not on the servers; or nested, and whether the removal empties its folders depends on
                // their children on the servers, which no operation of the transaction can check: ask the servers
                return null;
            }
            if (node != null) {
                values.put(change.getKey(), new NodeData(node.data(), node.stat()));
            }
            for (String folder : keys.ancestors(change.getKey())) {
                if (raw.nodes().containsKey(folder)) {
                    existing.add(folder);
                }
            }
        }
        // a fence that says "moved" was written with the history folder made (a folder deleted since fails the transaction: read again)
        return new ReleaseState(true, raw.nodes().containsKey(keys.base()), fenceNode == null ? null : new NodeData(fenceNode.data(),
            fenceNode.stat()), at, history, fenceNode != null, at.moved(), values, existing, Map.of());
    }
}
