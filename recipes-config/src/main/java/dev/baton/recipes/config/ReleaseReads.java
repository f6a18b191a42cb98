package dev.baton.recipes.config;

import dev.baton.framework.BatonClient;
import dev.baton.framework.NodeData;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What {@link Releases} reads from the servers: the state a commit starts from when the local
 * snapshot will not do, the history, and whether a release whose reply was lost went through.
 */
final class ReleaseReads {
    private static final Logger LOG = LoggerFactory.getLogger(Releases.class);

    private final BatonClient client;
    private final Keys keys;

    ReleaseReads(BatonClient client, Keys keys) {
        this.client = client;
        this.keys = keys;
    }

    /**
     * Every release the history keeps, newest first: the entries in the history folder next to the
     * base, and those a store of the first layout left under the fence (the folder's wins if both
     * have one number).
     */
    List<Release> history() throws InterruptedException {
        Map<Long, String> entries = entries(childrenAsync(keys.fence()), Async.orAbsent(client.getChildren().forPathAsync(keys.history())));
        Map<Long, CompletableFuture<Optional<NodeData>>> reads = new LinkedHashMap<>();
        entries.forEach((n, path) -> reads.put(n, data(path)));
        List<Release> out = new ArrayList<>();
        for (Map.Entry<Long, CompletableFuture<Optional<NodeData>>> read : reads.entrySet()) {
            Optional<NodeData> data = join(read.getValue());
            if (data.isEmpty()) {
                continue;
            }
            Optional<Release> release = ReleaseCodec.readEntry(data.get().data());
            if (release.isPresent()) {
                out.add(release.get());
            } else {
                LOG.warn("history entry {} of {} is not a release: skipped", entries.get(read.getKey()), keys.base());
            }
        }
        out.sort(Comparator.comparingLong(Release::number).reversed());
        return out;
    }

    /** The history entries by number and path, from the listings of the fence (first layout) and the history folder. */
    private Map<Long, String> entries(CompletableFuture<List<String>> legacy, CompletableFuture<Optional<List<String>>> moved)
        throws InterruptedException {
        Map<Long, String> out = new java.util.TreeMap<>();
        for (String name : join(legacy)) {
            long n = Keys.historyNumber(name);
            if (n >= 0) {
                out.put(n, keys.legacyHistoryEntry(n));
            }
        }
        for (String name : join(moved).orElse(List.of())) {
            long n = Keys.historyNumber(name);
            if (n >= 0) {
                out.put(n, keys.historyEntry(n));
            }
        }
        return out;
    }

    /** The state of the store on the servers: the fence, the history's listings, and every key of {@code changes} with its folders. */
    ReleaseState state(Map<String, Optional<byte[]>> changes) throws InterruptedException {
        CompletableFuture<Boolean> base = client.checkExists().forPathAsync(keys.base()).thenApply(stat -> stat != null);
        CompletableFuture<Optional<NodeData>> fence = data(keys.fence());
        CompletableFuture<List<String>> legacy = childrenAsync(keys.fence());
        CompletableFuture<Optional<List<String>>> moved = Async.orAbsent(client.getChildren().forPathAsync(keys.history()));
        Map<String, CompletableFuture<Optional<NodeData>>> values = new LinkedHashMap<>();
        Map<String, CompletableFuture<Boolean>> exists = new LinkedHashMap<>();
        Map<String, CompletableFuture<Optional<NodeData>>> folderData = new LinkedHashMap<>();
        Map<String, CompletableFuture<List<String>>> folderChildren = new LinkedHashMap<>();
        changes.forEach((key, value) -> {
            values.put(key, data(keys.path(key)));
            for (String folder : keys.ancestors(key)) {
                if (value.isPresent()) {
                    exists.computeIfAbsent(folder, f -> client.checkExists().forPathAsync(f).thenApply(stat -> stat != null));
                } else {
                    folderData.computeIfAbsent(folder, this::data);
                    folderChildren.computeIfAbsent(folder, this::childrenAsync);
                }
            }
        });
        Optional<NodeData> fenceNode = join(fence);
        Map<String, NodeData> current = new HashMap<>();
        for (Map.Entry<String, CompletableFuture<Optional<NodeData>>> read : values.entrySet()) {
            join(read.getValue()).ifPresent(d -> current.put(read.getKey(), d));
        }
        Set<String> existing = new HashSet<>();
        for (Map.Entry<String, CompletableFuture<Boolean>> folder : exists.entrySet()) {
            if (join(folder.getValue())) {
                existing.add(folder.getKey());
            }
        }
        Map<String, ReleaseState.Folder> folders = new HashMap<>();
        for (Map.Entry<String, CompletableFuture<Optional<NodeData>>> folder : folderData.entrySet()) {
            Optional<NodeData> node = join(folder.getValue());
            List<String> children = join(folderChildren.get(folder.getKey()));
            node.ifPresent(d -> folders.put(folder.getKey(), new ReleaseState.Folder(d, children)));
        }
        ReleaseCodec.Fence at = fenceNode.map(d -> ReleaseCodec.readFence(d.data())).orElse(ReleaseCodec.Fence.NONE);
        Map<Long, String> entries = entries(legacy, moved);
        boolean folder = join(moved).isPresent();
        // where the entries start being in the folder: as the fence says; else (a store of the first layout, or a fence an
        // older writer wrote without it) from the folder's oldest entry, or from this release on
        long from = at.moved() >= 1 ? at.moved() : entries.entrySet().stream()
            .filter(e -> e.getValue().equals(keys.historyEntry(e.getKey()))).mapToLong(Map.Entry::getKey).min().orElse(at.release() + 1);
        return new ReleaseState(false, join(base), fenceNode.orElse(null), at, entries, folder, from, current, existing, folders);
    }

    /** Whether the fence names the release with {@code id} (our transaction went through after all). */
    boolean committed(String id) throws InterruptedException {
        Optional<NodeData> fence = join(data(keys.fence()));
        return fence.isPresent() && ReleaseCodec.readFence(fence.get().data()).id().equals(id);
    }

    CompletableFuture<Optional<NodeData>> data(String path) {
        return Async.orAbsent(client.getData().forPathWithStatAsync(path));
    }

    private CompletableFuture<List<String>> childrenAsync(String path) {
        return Async.orAbsent(client.getChildren().forPathAsync(path)).thenApply(c -> c.orElse(List.of()));
    }

    private static <T> T join(CompletableFuture<T> future) throws InterruptedException {
        return Async.await(future);
    }
}
