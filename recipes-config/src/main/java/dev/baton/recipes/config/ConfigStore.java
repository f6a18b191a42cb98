package dev.baton.recipes.config;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.framework.BadVersionException;
import dev.baton.framework.BatonClient;
import dev.baton.framework.ChangeSignal;
import dev.baton.framework.ClientNotStartedException;
import dev.baton.framework.Deadline;
import dev.baton.framework.NoNodeException;
import dev.baton.framework.NodeData;
import dev.baton.framework.NodeExistsException;
import dev.baton.framework.NotEmptyException;
import dev.baton.framework.TransactionFailedException;
import dev.baton.framework.cache.ChildData;
import dev.baton.framework.cache.SnapshotCache;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A configuration store: keys under a base path, one znode per key ({@code <base>/db/url} holds
 * key {@code db/url}), read from a local snapshot, watched, and changed by compare-and-set or by
 * numbered releases that every reader sees whole.
 *
 * <p>Reads ({@link #get}, the typed views of {@link ConfigValues}, {@link #snapshot()}) come from
 * the latest snapshot of a {@link SnapshotCache} over the base path: no round trip. Writes go to
 * the servers: {@link #set}, {@link #compareAndSet} and {@link #update} change one key;
 * {@link #release()} changes several in one transaction, numbered, validated first by the
 * store's {@link ReleaseValidator}, kept in a history of the last {@code keepReleases} releases
 * ({@code <base>.history/release-<n>}, next to the base so that watchers get no event of it, with
 * each key's value before and after) so that {@link #rollback} can undo them. The node
 * {@code <base>/.releases} is the releases' fence: its data names the latest release, and every
 * release writes it last, which is what lets the cache publish only whole releases. A store of the
 * first layout (entries under the fence) is read as it is; its entries leave as new ones arrive.
 *
 * <p>Guarantees and caveats. A snapshot holds every release whole or not at all; consecutive
 * calls on the store may be answered from different snapshots, so read related keys from one
 * {@link #snapshot()}. Snapshots only move forward, across disconnections and session expiries
 * (the cache reloads and re-watches by itself). A key written outside releases (by {@link #set},
 * or by other tools, {@code zkCli} included) appears on its own; the store reads any subtree of
 * plain znodes and needs no metadata of its own to read it. After a write, the local snapshot
 * shows it one round trip later ({@link #awaitRelease} waits for a release). Listeners may miss
 * intermediate values, never the latest one: after any quiet period each has been told the value
 * every key has now.
 *
 * <pre>{@code
 * try (ConfigStore config = ConfigStore.builder(client, "/app/config").keepReleases(20).build()) {
 *     config.start();
 *     config.awaitInitialized(Duration.ofSeconds(10));
 *     Duration timeout = config.getDuration("http/timeout").orElse(Duration.ofSeconds(5));
 *     config.watchKey("feature/new-checkout", update -> toggle(update.snapshot().getBoolean("feature/new-checkout")));
 *     config.release().set("db/url", "jdbc:postgresql://db2/orders").set("db/pool", "20").commit();
 * }
 * }</pre>
 */
public final class ConfigStore implements ConfigValues, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ConfigStore.class);
    /** Default number of releases the history keeps. */
    public static final int DEFAULT_KEEP_RELEASES = 10;
    /** Default of {@link Builder#validationCatchUp}. */
    public static final Duration DEFAULT_VALIDATION_CATCH_UP = Duration.ofSeconds(10);
    private static final int MAX_CREATE_RACES = 10;

    private final BatonClient client;
    private final Keys keys;
    private final ObjectMapper mapper;
    private final SnapshotCache cache;
    private final Watches watches;
    private final Releases releases;
    private final Clock clock;
    /** Bumped whenever {@link #current} advances: wakes {@link #awaitSnapshot} (the client's close wakes it too). */
    private final ChangeSignal advanced = new ChangeSignal();
    private volatile ConfigSnapshot current;
    /**
     * Per key, how many nodes of the latest snapshot are its children (keys with none are absent):
     * whether an empty node is a folder. Kept by {@link #onSnapshot}, on the event executor only.
     */
    private final Map<String, Integer> children = new HashMap<>();

    private ConfigStore(Builder b) {
        this.client = b.client;
        this.keys = new Keys(b.base);
        this.mapper = b.mapper;
        this.cache = SnapshotCache.builder(client, keys.base()).fence(keys.fence()).build();
        this.watches = new Watches(keys.base(), client.eventExecutor(), () -> current);
        this.clock = b.clock;
        this.releases = new Releases(client, keys, b.keep, b.validator, () -> current, b.clock, this::awaitRelease, b.catchUp);
        cache.addListener(this::onSnapshot);
    }

    /**
     * Configures a store.
     *
     * @param client the client it reads and writes with
     * @param basePath the absolute path its keys are under (it need not exist yet)
     * @return a builder; {@link Builder#build()} makes the store
     */
    public static Builder builder(BatonClient client, String basePath) {
        return new Builder(client, basePath);
    }

    /**
     * Starts loading and watching, in the background; {@link #awaitInitialized} waits for the first snapshot.
     *
     * @throws ClientNotStartedException if the client was never started (start it, then this)
     * @throws dev.baton.framework.ClientClosedException if the client is closed
     */
    public void start() {
        if (!client.isClosed()) {   // a closed client is refused by the cache, as before
            // no snapshot would ever come: a client never started never connects
            client.requireStarted("start the config store", keys.base());
        }
        cache.start();
    }

    /**
     * Waits for the first snapshot.
     *
     * @param timeout how long to wait at most
     * @return true once the first snapshot is there, false if {@code timeout} passed first
     * @throws dev.baton.framework.ClientClosedException if the client is closed (before or while it waits) with no
     *     snapshot: the wait ends then, not at {@code timeout}
     * @throws InterruptedException if the thread is interrupted while waiting
     */
    public boolean awaitInitialized(Duration timeout) throws InterruptedException {
        return awaitSnapshot(s -> true, "wait for the first snapshot of the config store", timeout);
    }

    /**
     * Waits until the local snapshot holds release {@code number} or a later one.
     *
     * @param number the release to wait for (from {@link Release#number()})
     * @param timeout how long to wait at most
     * @return true once it does, false if {@code timeout} passed first
     * @throws dev.baton.framework.ClientClosedException if the client is closed (before or while it waits) before the
     *     snapshot holds it: the wait ends then, not at {@code timeout}
     * @throws InterruptedException if the thread is interrupted while waiting
     */
    public boolean awaitRelease(long number, Duration timeout) throws InterruptedException {
        return awaitSnapshot(s -> s.release() >= number, "wait for release " + number + " of the config store", timeout);
    }

    /**
     * Checks that {@code key} is a valid key (a relative path, not reserved) and returns it.
     *
     * @param key the key to check
     * @return {@code key}
     * @throws InvalidKeyException naming the key and what is wrong with it
     */
    public static String validateKey(String key) {
        return Keys.check(key);
    }

    /**
     * The store's base path.
     *
     * @return the absolute path the keys are under
     */
    public String base() {
        return keys.base();
    }

    /**
     * The latest snapshot: one consistent view to read several keys from.
     *
     * @return the snapshot the store holds now
     * @throws IllegalStateException before the first snapshot (see {@link #awaitInitialized})
     */
    public ConfigSnapshot snapshot() {
        ConfigSnapshot s = current;
        if (s == null) {
            throw new IllegalStateException("config store " + keys.base() + " has not loaded yet: call start(), then awaitInitialized(timeout)");
        }
        return s;
    }

    @Override
    public Optional<byte[]> get(String key) {
        return snapshot().get(key);
    }

    @Override
    public Optional<String> getString(String key) {
        return snapshot().getString(key);
    }

    @Override
    public Optional<VersionedValue<byte[]>> getVersioned(String key) {
        return snapshot().getVersioned(key);
    }

    @Override
    public <T> Optional<T> getJson(String key, Class<T> type) {
        return snapshot().getJson(key, type);
    }

    @Override
    public Set<String> keys() {
        return snapshot().keys();
    }

    // ---- single-key writes (to the servers) ----

    /**
     * Sets {@code key} (creating it, and folders for it) on the servers, outside any release.
     *
     * @param key a key
     * @param value its new value
     * @return the key's node's new version
     * @throws InvalidKeyException if {@code key} is not a valid key
     * @throws dev.baton.framework.DataTooLargeException if {@code value} is over the server's limit (nothing is written)
     * @throws InterruptedException if the thread is interrupted meanwhile
     */
    public int set(String key, byte[] value) throws InterruptedException {
        String path = keys.path(key);
        Objects.requireNonNull(value, "value");
        for (int race = 0; ; race++) {
            try {
                return client.setData().forPath(path, value).getVersion();
            } catch (NoNodeException missing) {
                try {
                    return client.create().creatingParentContainersIfNeeded().forPathWithStat(path, value).stat().getVersion();
                } catch (NodeExistsException created) {
                    if (race >= MAX_CREATE_RACES) {
                        throw created;
                    }
                }
            }
        }
    }

    /**
     * {@link #set(String, byte[])} with {@code value} as UTF-8.
     *
     * @param key a key
     * @param value its new value
     * @return the key's node's new version
     * @throws InterruptedException if the thread is interrupted meanwhile
     */
    public int set(String key, String value) throws InterruptedException {
        return set(key, Objects.requireNonNull(value, "value").getBytes(UTF_8));
    }

    /**
     * Sets {@code key} only if its node is at {@code expectedVersion} (from {@link #getVersioned};
     * {@link VersionedValue#ABSENT}: only if the key does not exist).
     *
     * @param key a key
     * @param expectedVersion the version the key's node must be at, or {@link VersionedValue#ABSENT}
     * @param value its new value
     * @return whether it was set; false if someone changed (or created, or removed) it first
     * @throws InterruptedException if the thread is interrupted meanwhile
     */
    public boolean compareAndSet(String key, int expectedVersion, byte[] value) throws InterruptedException {
        String path = keys.path(key);
        Objects.requireNonNull(value, "value");
        if (expectedVersion < VersionedValue.ABSENT) {
            throw new IllegalArgumentException("expectedVersion must be a node version (0 or more) or VersionedValue.ABSENT (-1), was "
                + expectedVersion);
        }
        try {
            if (expectedVersion == VersionedValue.ABSENT) {
                client.create().creatingParentContainersIfNeeded().forPath(path, value);
            } else {
                client.setData().withVersion(expectedVersion).forPath(path, value);
            }
            return true;
        } catch (NodeExistsException | BadVersionException | NoNodeException conflict) {
            return false;
        }
    }

    /**
     * Sets {@code key} to {@code change} applied to its current value (read from the servers),
     * again and again until no one else changed the key in between.
     *
     * @param key a key
     * @param change from the value now (empty if the key does not exist) to the new value; it may
     *     run several times, so it must not have side effects
     * @return the value written and its node's version
     * @throws InterruptedException if the thread is interrupted meanwhile
     */
    public VersionedValue<byte[]> update(String key, Function<Optional<byte[]>, byte[]> change) throws InterruptedException {
        String path = keys.path(key);
        Objects.requireNonNull(change, "change");
        while (true) {
            if (Thread.interrupted()) {
                throw new InterruptedException("update of " + key + " in " + keys.base());
            }
            Optional<NodeData> now = Async.await(Async.orAbsent(client.getData().forPathWithStatAsync(path)));
            byte[] next = Objects.requireNonNull(change.apply(now.map(d -> d.data().clone())), "the change function returned null").clone();
            int version = now.map(d -> d.stat().getVersion()).orElse(VersionedValue.ABSENT);
            if (compareAndSet(key, version, next)) {
                return new VersionedValue<>(version + 1, next);
            }
        }
    }

    /**
     * Removes {@code key} (and the folders it leaves empty), outside any release.
     *
     * @param key a key
     * @return false if it did not exist
     * @throws InterruptedException if the thread is interrupted meanwhile
     * @throws InvalidKeyException if keys exist under it (remove those first, or in one release)
     */
    public boolean remove(String key) throws InterruptedException {
        try {
            client.delete().forPath(keys.path(key));
        } catch (NoNodeException e) {
            return false;
        } catch (NotEmptyException e) {
            throw new InvalidKeyException(key, "it has nested keys: remove them first, or in the same release", false);
        }
        removeEmptyFolders(key);
        return true;
    }

    /**
     * Deletes the folders above {@code key} that are left with no data and no child, deepest
     * first, each only at the version read, so a key or a child that appears meanwhile stays. A
     * folder left with a value and no child (made for a nested key, given a value later) is made
     * again as a plain node with its value, at the version read, in one transaction: folders are
     * container nodes, which the servers delete once empty, value and all (clients cannot tell a
     * container from a plain node). Between the removal and that transaction (a round trip) the
     * servers' container check could still take it; a release removes and keeps it in one
     * transaction.
     */
    private void removeEmptyFolders(String key) throws InterruptedException {
        String[] folders = keys.ancestors(key);
        for (int i = folders.length - 1; i >= 0; i--) {
            Optional<NodeData> folder = Async.await(Async.orAbsent(client.getData().forPathWithStatAsync(folders[i])));
            if (folder.isEmpty() || folder.get().stat().getNumChildren() > 0) {
                return;
            }
            if (folder.get().data().length > 0) {
                keepAsPlainNode(folders[i], folder.get());
                return;
            }
            try {
                client.delete().withVersion(folder.get().stat().getVersion()).forPath(folders[i]);
            } catch (NoNodeException | NotEmptyException | BadVersionException changed) {
                return;
            }
        }
    }

    /** Makes the container {@code path}, left with a value and no child, a plain node with that value (see {@link #removeEmptyFolders}). */
    private void keepAsPlainNode(String path, NodeData folder) throws InterruptedException {
        try {
            client.transaction().delete(path, folder.stat().getVersion()).create(path, folder.data()).commit();
        } catch (TransactionFailedException changed) {
            // changed, given a child, or gone meanwhile: whoever did it decided what it is
            LOG.debug("config key {} was not made a plain node: {}", path, changed.getMessage());
        }
    }

    // ---- releases ----

    /**
     * Starts a release: several changes written together, numbered, and kept in the history.
     *
     * @return a builder of the release; nothing is sent before its {@link ReleaseBuilder#commit()}
     */
    public ReleaseBuilder release() {
        return new ReleaseBuilder(this);
    }

    /**
     * The releases the history keeps (the last {@code keepReleases}), read from the servers.
     *
     * @return the releases, newest first
     * @throws InterruptedException if the thread is interrupted meanwhile
     */
    public List<Release> history() throws InterruptedException {
        return releases.history();
    }

    /**
     * Writes a new release that gives every key changed by the releases after {@code number} the
     * value it had right after release {@code number} (re-creating removed keys, removing added
     * ones). Keys no release touched since — including keys changed by {@link #set} — stay as they
     * are. The validator runs as for any release.
     *
     * @param number the release to go back to
     * @return the release written; if every key is already as it was right after {@code number},
     *     nothing is written and the result has no changes and the number of the release the store
     *     is at (see {@link ReleaseBuilder#commit()})
     * @throws InterruptedException if the thread is interrupted meanwhile
     * @throws NoSuchReleaseException if {@code number} is not older than the current release, or
     *     a release after it is no longer in the history
     */
    public Release rollback(long number) throws InterruptedException {
        return counted(() -> releases.rollback(number));
    }

    Release commit(Map<String, Optional<byte[]>> changes, String message, OptionalLong expected) throws InterruptedException {
        return counted(() -> releases.commit(changes, message, expected));
    }

    /** A release, rollbacks included, told to the observer as a write (or a conflict); one that changed nothing wrote nothing. */
    private Release counted(ReleaseWrite write) throws InterruptedException {
        try {
            Release release = write.run();
            if (!release.changes().isEmpty()) {
                client.observer().configWritten("config-store", base(), true);
            }
            return release;
        } catch (ReleaseConflictException e) {
            client.observer().configWritten("config-store", base(), false);
            throw e;
        }
    }

    private interface ReleaseWrite {
        Release run() throws InterruptedException;
    }

    // ---- watches ----

    /**
     * Calls {@code listener} with {@code key}'s current value (if it exists), then on every change of it.
     *
     * @param key the key to watch
     * @param listener told of the changes, on the client's event executor
     * @return the watch; close it to stop
     */
    public ConfigWatch watchKey(String key, ConfigListener listener) {
        Keys.check(key);
        return watches.add(key, false, Objects.requireNonNull(listener, "listener"));
    }

    /**
     * Calls {@code listener} with the current values of {@code prefix} and every key under it
     * ({@code ""}: every key), then on every change of them.
     *
     * @param prefix a key, or {@code ""}
     * @param listener told of the changes, on the client's event executor
     * @return the watch; close it to stop
     */
    public ConfigWatch watchPrefix(String prefix, ConfigListener listener) {
        Keys.checkPrefix(prefix);
        return watches.add(prefix, true, Objects.requireNonNull(listener, "listener"));
    }

    /** Stops watching; the last snapshot stays readable. */
    @Override
    public void close() {
        cache.close();
        watches.clear();
    }

    // ---- snapshots ----

    /**
     * Turns the cache's snapshot into keys; runs on the client's event executor, in publication
     * order. A node is a key unless it is a folder: no data, and a child in the same snapshot.
     * After the first snapshot only the paths the cache reports changed are looked at, with the
     * parent key of each (a child coming or going can turn its parent from a key into a folder or
     * back); every other entry, and the previous map itself when no key changed, is reused. The
     * fence is parsed only when it changed.
     */
    private void onSnapshot(SnapshotCache.Snapshot previous, SnapshotCache.Snapshot published, Set<String> changedPaths) {
        client.observer().configChangeSeen("config-store", base());
        ConfigSnapshot before = current;
        Map<String, ConfigSnapshot.Entry> old = before == null ? Map.of() : before.entries();
        // incremental only from the snapshot the books were kept for (always so: the cache's previous is the snapshot of the call before)
        boolean incremental = before != null && previous != null && before.nodes() == previous;
        Map<String, ConfigSnapshot.Entry> entries;
        List<String> changed = new ArrayList<>();
        if (incremental) {
            entries = old;
            Map<String, String> affected = new HashMap<>(); // key to its path
            for (String path : changedPaths) {
                String key = keys.keyOf(path);
                if (key == null) {
                    continue;
                }
                affected.put(key, path);
                int slash = key.lastIndexOf('/');
                boolean was = previous.nodes().containsKey(path);
                boolean is = published.nodes().containsKey(path);
                if (slash > 0 && was != is) {
                    String parent = key.substring(0, slash);
                    children.merge(parent, is ? 1 : -1, (a, b) -> a + b == 0 ? null : a + b);
                    affected.put(parent, path.substring(0, path.length() - key.length() + slash));
                }
            }
            for (Map.Entry<String, String> a : affected.entrySet()) {
                String key = a.getKey();
                ConfigSnapshot.Entry e = entryOf(key, published.nodes().get(a.getValue()), old.get(key));
                if (e != old.get(key)) {
                    if (entries == old) {
                        entries = new HashMap<>(old);
                    }
                    if (e == null) {
                        entries.remove(key);
                    } else {
                        entries.put(key, e);
                    }
                    changed.add(key);
                }
            }
        } else {
            children.clear();
            for (String path : published.nodes().keySet()) {
                String key = keys.keyOf(path);
                int slash = key == null ? -1 : key.lastIndexOf('/');
                if (slash > 0) {
                    children.merge(key.substring(0, slash), 1, Integer::sum);
                }
            }
            entries = new HashMap<>();
            for (ChildData node : published.nodes().values()) {
                String key = keys.keyOf(node.path());
                ConfigSnapshot.Entry e = key == null ? null : entryOf(key, node, old.get(key));
                if (e != null) {
                    entries.put(key, e);
                }
            }
            for (Map.Entry<String, ConfigSnapshot.Entry> e : entries.entrySet()) {
                if (old.get(e.getKey()) != e.getValue()) {
                    changed.add(e.getKey());
                }
            }
            for (String key : old.keySet()) {
                if (!entries.containsKey(key)) {
                    changed.add(key);
                }
            }
        }
        ReleaseCodec.Fence fence;
        if (incremental && !changedPaths.contains(keys.fence())) {
            fence = before.fence();
        } else {
            ChildData f = published.nodes().get(keys.fence());
            fence = f == null ? ReleaseCodec.Fence.NONE : ReleaseCodec.readFence(f.data());
        }
        ConfigSnapshot next = new ConfigSnapshot(keys.base(), fence.release(), published.sequence(), entries, mapper, published, fence);
        current = next;
        advanced.bump();
        // told once the store shows it (an observer reading snapshot() sees it), before the listeners run
        if (before == null ? next.release() > 0 : next.release() > before.release()) {
            // by this process's clock against the writer's: how long the release took to reach this store (skew included)
            Optional<Duration> since = before == null || fence.time() == 0 ? Optional.empty()
                : Optional.of(Duration.ofMillis(Math.max(0, clock.millis() - fence.time())));
            client.observer().configReleaseSeen("config-store", base(), next.release(), since);
        }
        watches.published(before, next, changed);
    }

    /**
     * The entry of {@code key} for {@code node} (null if there is no node, or it is a folder: no
     * data and a child), {@code old} itself if the node is unchanged; reads {@link #children}.
     */
    private ConfigSnapshot.Entry entryOf(String key, ChildData node, ConfigSnapshot.Entry old) {
        if (node == null || (node.data().length == 0 && children.containsKey(key))) {
            return null;
        }
        if (old != null && old.mzxid == node.stat().getMzxid()) {
            return old;
        }
        return new ConfigSnapshot.Entry(node.data(), node.stat().getVersion(), node.stat().getMzxid());
    }

    private boolean awaitSnapshot(Predicate<ConfigSnapshot> condition, String what, Duration timeout) throws InterruptedException {
        // a closed client hears of no release any more: its close ends the wait, whatever the timeout
        return advanced.awaitUnlessClosed(client, () -> {
            ConfigSnapshot s = current;
            return s != null && condition.test(s);
        }, Deadline.afterNonNegative(timeout, client.ticker()), what, keys.base());
    }

    /** Configures a {@link ConfigStore}; each setting is checked as it is set. */
    public static final class Builder {
        private final BatonClient client;
        private final String base;
        private int keep = DEFAULT_KEEP_RELEASES;
        private ReleaseValidator validator;
        private ObjectMapper mapper = tolerant(new ObjectMapper());
        private Clock clock = Clock.systemUTC();
        private Duration catchUp = DEFAULT_VALIDATION_CATCH_UP;

        private Builder(BatonClient client, String base) {
            this.client = Objects.requireNonNull(client, "client");
            this.base = new Keys(Objects.requireNonNull(base, "basePath")).base();
        }

        /**
         * How many releases the history keeps; older entries are deleted by the release that passes them. Default 10.
         *
         * @param releases 1 to 1000
         * @return this builder
         */
        public Builder keepReleases(int releases) {
            if (releases < 1 || releases > 1000) {
                throw new IllegalArgumentException("keepReleases must be 1 to 1000, was " + releases);
            }
            this.keep = releases;
            return this;
        }

        /**
         * Checks every release (rollbacks included) before it is written. Default: none.
         *
         * @param releaseValidator the check
         * @return this builder
         */
        public Builder validator(ReleaseValidator releaseValidator) {
            this.validator = Objects.requireNonNull(releaseValidator, "validator");
            return this;
        }

        /**
         * The mapper for {@link ConfigValues#getJson} (a copy of it that ignores unknown properties). Default: a plain one.
         *
         * @param objectMapper the mapper to copy
         * @return this builder
         */
        public Builder objectMapper(ObjectMapper objectMapper) {
            this.mapper = tolerant(Objects.requireNonNull(objectMapper, "objectMapper").copy());
            return this;
        }

        /**
         * How long a release waits, before its validator runs, for the local snapshot to catch up
         * with the latest release on the servers when it lags it; a release that cannot be judged
         * on the latest state in that time fails with {@link ReleaseConflictException}. Default 10 s.
         *
         * @param wait more than zero
         * @return this builder
         */
        public Builder validationCatchUp(Duration wait) {
            Objects.requireNonNull(wait, "validationCatchUp");
            if (wait.isNegative() || wait.isZero()) {
                throw new IllegalArgumentException("validationCatchUp must be more than zero, was " + wait);
            }
            this.catchUp = wait;
            return this;
        }

        /**
         * The clock that stamps releases, and that a watching store reads to tell how long after
         * its commit a release reached it ({@link dev.baton.framework.BatonObserver#configReleaseSeen},
         * the meter {@code baton.config.release.lag}). Default: the system's, in UTC.
         *
         * @param releaseClock the clock
         * @return this builder
         */
        public Builder clock(Clock releaseClock) {
            this.clock = Objects.requireNonNull(releaseClock, "clock");
            return this;
        }

        /**
         * Makes the store; {@link ConfigStore#start()} starts it.
         *
         * @return a new store, not started
         */
        public ConfigStore build() {
            return new ConfigStore(this);
        }

        private static ObjectMapper tolerant(ObjectMapper m) {
            return m.configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
        }
    }
}
