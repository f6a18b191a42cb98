package dev.baton.recipes.config;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.framework.cache.SnapshotCache;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * One consistent view of a store's keys: for every release, all of its changes or none. Read
 * several related keys from one snapshot ({@code store.snapshot()}) rather than from the store
 * one by one, which may answer each from a newer snapshot. Immutable; reads are local.
 */
public final class ConfigSnapshot implements ConfigValues {
    /** One key's value as read from its node. */
    static final class Entry {
        final byte[] data;
        final int version;
        final long mzxid;
        private String text;

        Entry(byte[] data, int version, long mzxid) {
            this.data = data;
            this.version = version;
            this.mzxid = mzxid;
        }

        /** The value as text, decoded once (a benign race: every thread decodes the same string). */
        String text() {
            String t = text;
            if (t == null) {
                t = Values.text(data);
                text = t;
            }
            return t;
        }
    }

    private final String base;
    private final long release;
    private final long sequence;
    private final Map<String, Entry> entries;
    private final ObjectMapper mapper;
    /** The cache's snapshot this one was made from (every node, folders and the fence too), or null. */
    private final SnapshotCache.Snapshot nodes;
    /** What the fence of {@code nodes} says (parsed once, for the store's next release). */
    private final ReleaseCodec.Fence fence;
    private volatile Set<String> sortedKeys;

    ConfigSnapshot(String base, long release, long sequence, Map<String, Entry> entries, ObjectMapper mapper,
                   SnapshotCache.Snapshot nodes, ReleaseCodec.Fence fence) {
        this.base = base;
        this.fence = fence;
        this.release = release;
        this.sequence = sequence;
        this.entries = entries;
        this.mapper = mapper;
        this.nodes = nodes;
    }

    /** What this snapshot's fence says ({@link ReleaseCodec.Fence#NONE} without one). */
    ReleaseCodec.Fence fence() {
        return fence;
    }

    /**
     * The store's base path.
     *
     * @return the absolute path the keys are under
     */
    public String base() {
        return base;
    }

    /**
     * The latest release this snapshot holds.
     *
     * @return its number, 0 if there was none
     */
    public long release() {
        return release;
    }

    /**
     * This snapshot's position in its store's sequence of snapshots.
     *
     * @return the position of the cache's snapshot it was made from: higher for each later one,
     *     with gaps where snapshots made while an update waited were skipped
     */
    public long sequence() {
        return sequence;
    }

    @Override
    public Optional<byte[]> get(String key) {
        Entry e = entry(key);
        return e == null ? Optional.empty() : Optional.of(e.data.clone());
    }

    @Override
    public Optional<String> getString(String key) {
        Entry e = entry(key);
        return e == null ? Optional.empty() : Optional.of(e.text());
    }

    @Override
    public Optional<VersionedValue<byte[]>> getVersioned(String key) {
        Entry e = entry(key);
        return e == null ? Optional.empty() : Optional.of(new VersionedValue<>(e.version, e.data.clone()));
    }

    @Override
    public <T> Optional<T> getJson(String key, Class<T> type) {
        Objects.requireNonNull(type, "type");
        Entry e = entry(key);
        return e == null ? Optional.empty() : Optional.of(Values.asJson(key, e.data, type, mapper));
    }

    /**
     * Whether {@code key} exists in this snapshot.
     *
     * @param key a key (a relative path)
     * @return true if it exists
     * @throws InvalidKeyException if {@code key} is not a valid key
     */
    public boolean contains(String key) {
        return entry(key) != null;
    }

    /**
     * The key's entry, or null. A key found is valid by construction; only a miss pays for
     * checking the key, so a malformed key is an error rather than "absent".
     */
    private Entry entry(String key) {
        Entry e = entries.get(key);
        if (e == null) {
            Keys.check(key);
        }
        return e;
    }

    @Override
    public Set<String> keys() {
        Set<String> keys = sortedKeys;
        if (keys == null) {
            keys = Collections.unmodifiableSet(new TreeSet<>(entries.keySet()));
            sortedKeys = keys;
        }
        return keys;
    }

    /**
     * The keys equal to {@code prefix} or under it ({@code "db"}: {@code db}, {@code db/url}, ...).
     *
     * @param prefix a key, or {@code ""} for every key
     * @return the keys, in name order
     */
    public Set<String> keys(String prefix) {
        Keys.checkPrefix(prefix);
        Set<String> out = new TreeSet<>();
        for (String key : keys()) {
            if (Keys.under(key, prefix)) {
                out.add(key);
            }
        }
        return Collections.unmodifiableSet(out);
    }

    /**
     * Every key with its value as text.
     *
     * @return key to UTF-8 value, in name order
     */
    public Map<String, String> asStrings() {
        Map<String, String> out = new LinkedHashMap<>();
        for (String key : keys()) {
            out.put(key, entries.get(key).text());
        }
        return out;
    }

    /**
     * How many keys there are.
     *
     * @return the number of keys
     */
    public int size() {
        return entries.size();
    }

    Map<String, Entry> entries() {
        return entries;
    }

    ObjectMapper mapper() {
        return mapper;
    }

    SnapshotCache.Snapshot nodes() {
        return nodes;
    }

    @Override
    public String toString() {
        return "ConfigSnapshot[" + base + ", release " + release + ", " + entries.size() + " keys]";
    }
}
