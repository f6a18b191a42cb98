package dev.baton.recipes.config;

import dev.baton.framework.BatonClient;
import dev.baton.framework.DataTooLargeException;
import dev.baton.framework.NodeData;
import dev.baton.framework.NodeExistsException;
import dev.baton.framework.TransactionBuilder;
import dev.baton.framework.TransactionFailedException;
import dev.baton.framework.cache.ChildData;
import dev.baton.framework.cache.SnapshotCache;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes releases: one ZooKeeper transaction per release, guarded by the fence's version.
 *
 * <p>A commit takes the fence, the history and every key it touches from the store's local
 * snapshot (or, without one, after a conflict, or when it removes a key that is missing locally
 * or nested in folders, reads them from the servers: which folders a removal empties depends on
 * their children, which no operation of a transaction can check), asks the validator, then sends one transaction: deletes (deepest first), sets and creates (with the
 * missing folders as containers), the history entry (and the deletion of entries past
 * {@code keep}), checks of keys left out as already at their value, and, last, the fence's new
 * content at the version read. Every node it changes is written at the version it saw, so the
 * history's "before" values are exact even when the local snapshot lagged; a transaction
 * rejected for a version, a node that appeared or one that went is read again and retried (the
 * validator runs again on the new state). The fence is the transaction's last operation so that
 * a {@link dev.baton.framework.cache.SnapshotCache} sees the release whole.
 */
final class Releases {
    private static final Logger LOG = LoggerFactory.getLogger(Releases.class);
    private static final int MAX_ATTEMPTS = 25;
    private static final byte[] EMPTY = new byte[0];
    /** How long a commit waits for its store to show this writer's previous release before reading the servers instead. */
    private static final Duration OWN_RELEASE_WAIT = Duration.ofSeconds(1);

    private final BatonClient client;
    private final Keys keys;
    private final int keep;
    private final ReleaseValidator validator;
    private final Supplier<ConfigSnapshot> latest;
    private final Clock clock;
    private final CatchUp catchUp;
    private final Duration catchUpTimeout;
    /**
     * This writer's part of every release id: random once, then a counter per commit, so an id is
     * unique across writers without a {@code SecureRandom} draw on each release's path.
     */
    private final String writerId = UUID.randomUUID().toString();
    private final java.util.concurrent.atomic.AtomicLong commits = new java.util.concurrent.atomic.AtomicLong();
    /** The latest release this writer committed. */
    private final java.util.concurrent.atomic.AtomicLong lastCommitted = new java.util.concurrent.atomic.AtomicLong();

    /** Waits until the local snapshot holds a release. */
    @FunctionalInterface
    interface CatchUp {
        /** Whether the local snapshot held release {@code number} or a later one within {@code timeout}. */
        boolean await(long number, Duration timeout) throws InterruptedException;
    }

    Releases(BatonClient client, Keys keys, int keep, ReleaseValidator validator, Supplier<ConfigSnapshot> latest, Clock clock,
             CatchUp catchUp, Duration catchUpTimeout) {
        this.client = client;
        this.keys = keys;
        this.keep = keep;
        this.validator = validator;
        this.latest = latest;
        this.clock = clock;
        this.catchUp = catchUp;
        this.catchUpTimeout = catchUpTimeout;
    }

    /**
     * What a commit starts from: read from the servers, or taken from the local snapshot (then
     * {@code local}); either way every write is checked against it by version in the transaction.
     *
     * @param history the history entries that exist: number to path (next to the base, or under
     *     the fence for entries written in the first layout)
     * @param historyFolder whether the history's folder next to the base exists
     * @param moved the first release whose entry is in that folder (the fence's "moved")
     */
    private record State(boolean local, boolean baseExists, NodeData fence, ReleaseCodec.Fence current, Map<Long, String> history,
                         boolean historyFolder, long moved, Map<String, NodeData> values, Set<String> existingFolders,
                         Map<String, Folder> folders) {
    }

    /** A folder above a removed key, as read: it goes with the release if the release empties it. */
    private record Folder(NodeData node, List<String> children) {
    }

    /**
     * Writes {@code changes} (key to new value, empty to remove) as the next release.
     *
     * @param expected the release the store must be at, if any
     */
    Release commit(Map<String, Optional<byte[]>> changes, String message, OptionalLong expected) throws InterruptedException {
        String id = writerId + "-" + commits.incrementAndGet();
        boolean localTried = false;
        for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
            // first from the local snapshot (no round trip); after a conflict, or if it lags what is expected, from the servers
            if (!localTried) {
                awaitOwnRelease();
            }
            State state = localTried ? null : local(changes);
            localTried = true;
            if (state == null || (expected.isPresent() && state.current().release() != expected.getAsLong())) {
                state = read(changes);
            }
            if (expected.isPresent() && state.current().release() != expected.getAsLong()) {
                throw new ReleaseConflictException("release of " + keys.base() + " expected the store at release "
                    + expected.getAsLong() + ", but it is at release " + state.current().release());
            }
            List<Release.Change> effective = effective(changes, state);
            if (effective.isEmpty()) {
                // nothing would change: no number is taken and no history entry pushes a real one out (an import of the
                // file the store already holds, a rollback to where it is); the checks make the answer hold at one moment
                if (unchanged(changes, state)) {
                    return new Release(state.current().release(), clock.instant(), message, List.of());
                }
                continue; // a key or the fence moved since the state was taken: read the servers and look again
            }
            if (!state.baseExists()) {
                ensureBase();
            }
            long number = state.current().release() + 1;
            List<String> problems = validate(number, changes, state);
            if (!problems.isEmpty()) {
                if (state.local()) {
                    continue; // a release may have come since this snapshot: refuse only on what the servers hold
                }
                throw new ReleaseRejectedException(keys.base(), number, problems);
            }
            Release release = new Release(number, clock.instant(), message, effective);
            TransactionBuilder tx = transaction(release, id, state, changes.keySet());
            try {
                tx.commit();
                return committed(release);
            } catch (TransactionFailedException e) {
                if (committed(id)) {
                    return committed(release); // the reply was lost and the framework's retry found our own work done
                }
                switch (e.code()) {
                    case BADVERSION, NODEEXISTS, NONODE -> LOG.debug("release {} of {} from {} state: {} at {}; reading again (attempt {})",
                        number, keys.base(), state.local() ? "local" : "read", e.code(), e.path(), attempt);
                    case NOTEMPTY -> {
                        String key = keys.keyOf(e.path());
                        if (changes.containsKey(key)) {
                            throw new InvalidKeyException(key, "it has nested keys: remove them in the same release, or first", false);
                        }
                        // a folder the release thought it emptied got a new key meanwhile: read again
                    }
                    default -> throw e;
                }
            }
        }
        throw new ReleaseConflictException("release of " + keys.base() + ": other writers changed its keys through "
            + MAX_ATTEMPTS + " attempts; nothing was written");
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

    /** Writes a release that puts every key changed after release {@code number} back as it was then. */
    Release rollback(long number) throws InterruptedException {
        for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
            long current = ReleaseCodec.readFence(join(data(keys.fence())).map(NodeData::data).orElse(EMPTY)).release();
            if (number < 0 || number >= current) {
                throw new NoSuchReleaseException("cannot roll " + keys.base() + " back to release " + number + ": it is at release "
                    + current + (number == current ? " already" : ""));
            }
            Map<Long, Release> kept = new HashMap<>();
            history().forEach(r -> kept.put(r.number(), r));
            Map<String, Optional<byte[]>> target = new LinkedHashMap<>();
            for (long n = current; n > number; n--) {
                Release r = kept.get(n);
                if (r == null) {
                    throw new NoSuchReleaseException("cannot roll " + keys.base() + " back to release " + number + ": release " + n
                        + " is no longer in the history (it keeps the last " + keep + " releases)");
                }
                // walking down, the earliest release after `number` that touched a key has the last word
                r.changes().forEach(c -> target.put(c.key(), c.before()));
            }
            try {
                return commit(target, "rollback to release " + number, OptionalLong.of(current));
            } catch (ReleaseConflictException e) {
                LOG.debug("rollback of {} to {}: another release came first; computing it again", keys.base(), number);
            }
        }
        throw new ReleaseConflictException("rollback of " + keys.base() + " to release " + number + ": other releases kept coming through "
            + MAX_ATTEMPTS + " attempts; nothing was written");
    }

    // ---- steps of a commit ----

    private void ensureBase() throws InterruptedException {
        try {
            client.create().creatingParentsIfNeeded().forPath(keys.base());
        } catch (NodeExistsException e) {
            // the usual case
        }
    }

    /**
     * Right after this writer's last commit its own store has heard the release's events (they
     * come before the commit's reply on the one connection) and its read of the changed nodes is
     * on the way: waiting for that answer is less than a round trip, where reading the state from
     * the servers instead is at least one, with several requests. So a writer releasing back to
     * back waits here for its own last release, at most {@link #OWN_RELEASE_WAIT} (a store that
     * cannot read — cut off, or not started — then lets the commit read from the servers, as before).
     */
    private void awaitOwnRelease() throws InterruptedException {
        long mine = lastCommitted.get();
        ConfigSnapshot snapshot = latest.get();
        if (mine > 0 && snapshot != null && snapshot.nodes() != null && snapshot.release() < mine) {
            catchUp.await(mine, OWN_RELEASE_WAIT);
        }
    }

    /**
     * The state as the local snapshot has it, or null when there is none (store not started) or
     * its fence does not say which history entries exist.
     */
    private State local(Map<String, Optional<byte[]>> changes) {
        ConfigSnapshot snapshot = latest.get();
        SnapshotCache.Snapshot raw = snapshot == null ? null : snapshot.nodes();
        if (raw == null) {
            return null;
        }
        ChildData fenceNode = raw.nodes().get(keys.fence());
        // the store parsed this snapshot's fence when it made it: not again on every release
        ReleaseCodec.Fence at = snapshot.fence();
        // a fence of the first layout (no "moved") does not say where the entries are: the servers' listings do
        if ((fenceNode != null && (at.oldest() < 1 || at.moved() < 1)) || at.release() < lastCommitted.get()) {
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
        return new State(true, raw.nodes().containsKey(keys.base()), fenceNode == null ? null : new NodeData(fenceNode.data(),
            fenceNode.stat()), at, history, fenceNode != null, at.moved(), values, existing, Map.of());
    }

    private State read(Map<String, Optional<byte[]>> changes) throws InterruptedException {
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
        Map<String, Folder> folders = new HashMap<>();
        for (Map.Entry<String, CompletableFuture<Optional<NodeData>>> folder : folderData.entrySet()) {
            Optional<NodeData> node = join(folder.getValue());
            List<String> children = join(folderChildren.get(folder.getKey()));
            node.ifPresent(d -> folders.put(folder.getKey(), new Folder(d, children)));
        }
        ReleaseCodec.Fence at = fenceNode.map(d -> ReleaseCodec.readFence(d.data())).orElse(ReleaseCodec.Fence.NONE);
        Map<Long, String> entries = entries(legacy, moved);
        boolean folder = join(moved).isPresent();
        // where the entries start being in the folder: as the fence says; else (a store of the first layout, or a fence an
        // older writer wrote without it) from the folder's oldest entry, or from this release on
        long from = at.moved() >= 1 ? at.moved() : entries.entrySet().stream()
            .filter(e -> e.getValue().equals(keys.historyEntry(e.getKey()))).mapToLong(Map.Entry::getKey).min().orElse(at.release() + 1);
        return new State(false, join(base), fenceNode.orElse(null), at, entries, folder, from, current, existing, folders);
    }

    private static List<Release.Change> effective(Map<String, Optional<byte[]>> changes, State state) {
        List<Release.Change> out = new ArrayList<>();
        changes.forEach((key, after) -> {
            NodeData node = state.values().get(key);
            Optional<byte[]> before = node == null ? Optional.empty() : Optional.of(node.data());
            boolean same = before.isPresent() == after.isPresent() && (before.isEmpty() || Arrays.equals(before.get(), after.get()));
            if (!same) {
                out.add(new Release.Change(key, before, after));
            }
        });
        return out;
    }

    /**
     * The validator's problems with the release (none without a validator), judged on the local
     * snapshot once it holds the release {@code state} read, or a later one: the transaction is
     * guarded by that release's fence, so what the validator saw is what the release changes (a
     * later release makes the transaction fail, and the commit starts again). A snapshot from
     * before that release would judge a configuration the servers no longer hold.
     */
    private List<String> validate(long number, Map<String, Optional<byte[]>> changes, State state) throws InterruptedException {
        if (validator == null) {
            return List.of();
        }
        ConfigSnapshot now = latest.get();
        if (now == null) {
            throw new IllegalStateException("config store " + keys.base() + " has a validator but has not loaded: start() it "
                + "and awaitInitialized(timeout) before releasing (the validator sees the configuration a release would make)");
        }
        long at = state.current().release();
        if (now.release() < at) {
            if (!catchUp.await(at, catchUpTimeout)) {
                throw new ReleaseConflictException("release of " + keys.base() + ": the servers are at release " + at
                    + " but the local snapshot stayed at release " + latest.get().release() + " for " + catchUpTimeout
                    + " (validationCatchUp); the validator judges only the latest state, so nothing was written");
            }
            now = latest.get();
        }
        ConfigSnapshot result = applied(now, changes);
        List<String> problems = validator.validate(new ReleaseProposal(number, changes, result));
        return problems == null ? List.of() : problems;
    }

    /**
     * Whether the store still holds what {@code state} says of the fence and of every key of
     * {@code changes} that exists: one transaction of version checks (it writes nothing, so
     * watchers hear nothing). A key asked removed that does not exist is taken as read, as a
     * release's removal of it is. True without a request if there is nothing to check.
     */
    private boolean unchanged(Map<String, Optional<byte[]>> changes, State state) throws InterruptedException {
        TransactionBuilder tx = client.transaction();
        int checks = 0;
        if (state.fence() != null) {
            tx.check(keys.fence(), state.fence().stat().getVersion());
            checks++;
        }
        for (String key : changes.keySet()) {
            NodeData now = state.values().get(key);
            if (now != null) {
                tx.check(keys.path(key), now.stat().getVersion());
                checks++;
            }
        }
        if (checks == 0) {
            return true;
        }
        try {
            tx.commit();
            return true;
        } catch (TransactionFailedException e) {
            if (e.code() == KeeperException.Code.BADVERSION || e.code() == KeeperException.Code.NONODE) {
                return false;
            }
            throw e;
        }
    }

    /** Remembers the release as this writer's latest: the local snapshot is not used for the next one until it shows it. */
    private Release committed(Release release) {
        lastCommitted.accumulateAndGet(release.number(), Math::max);
        return release;
    }

    /** {@code base} with {@code changes} applied (versions of changed keys unknown: -1). */
    static ConfigSnapshot applied(ConfigSnapshot base, Map<String, Optional<byte[]>> changes) {
        Map<String, ConfigSnapshot.Entry> entries = new HashMap<>(base.entries());
        changes.forEach((key, value) -> {
            if (value.isPresent()) {
                entries.put(key, new ConfigSnapshot.Entry(value.get().clone(), VersionedValue.ABSENT, 0));
            } else {
                entries.remove(key);
            }
        });
        return new ConfigSnapshot(base.base(), base.release(), base.sequence(), entries, base.mapper(), null, base.fence());
    }

    private TransactionBuilder transaction(Release release, String id, State state, Set<String> asked) {
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
    private Map<String, byte[]> valuedFoldersEmptied(State state, Set<String> gone, List<Release.Change> writes) {
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
    private Map<String, Integer> emptiedFolders(State state, Set<String> deleted, List<Release.Change> writes) {
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
            Folder f = state.folders().get(folder);
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

    /** Whether the fence names the release with {@code id} (our transaction went through after all). */
    private boolean committed(String id) throws InterruptedException {
        Optional<NodeData> fence = join(data(keys.fence()));
        return fence.isPresent() && ReleaseCodec.readFence(fence.get().data()).id().equals(id);
    }

    // ---- reads ----

    private CompletableFuture<Optional<NodeData>> data(String path) {
        return Async.orAbsent(client.getData().forPathWithStatAsync(path));
    }

    private CompletableFuture<List<String>> childrenAsync(String path) {
        return Async.orAbsent(client.getChildren().forPathAsync(path)).thenApply(c -> c.orElse(List.of()));
    }

    private static <T> T join(CompletableFuture<T> future) throws InterruptedException {
        return Async.await(future);
    }
}
