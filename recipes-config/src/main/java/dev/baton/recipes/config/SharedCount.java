package dev.baton.recipes.config;

import dev.baton.framework.BatonClient;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An int every process sees: Curator's {@code SharedCount}, same node and bytes (the path
 * itself holds the count as 4 bytes, big-endian), so Curator and Baton processes share it. A
 * {@link SharedValue} underneath, with its guarantees.
 *
 * <pre>{@code
 * SharedCount workers = new SharedCount(client, "/app/workers", 4);
 * workers.start();
 * VersionedValue<Integer> seen = workers.getVersionedValue();
 * if (!workers.trySetCount(seen, seen.value() + 1)) {
 *     // someone changed it first: getVersionedValue() has the newer count
 * }
 * }</pre>
 */
public final class SharedCount implements AutoCloseable {
    private final SharedValue value;
    private final Map<SharedCountListener, SharedValueListener> listeners = new ConcurrentHashMap<>();

    /**
     * A shared count (Curator's layout: 4 bytes, big-endian).
     *
     * @param client the client it reads and writes with
     * @param path the count's node
     * @param seedValue written if the node does not exist at start
     */
    public SharedCount(BatonClient client, String path, int seedValue) {
        this.value = new SharedValue("SharedCount", client, path, toBytes(seedValue));
    }

    /**
     * Creates the node with the seed if it is missing, reads it, and starts watching it.
     *
     * @throws IllegalStateException if it was started before
     * @throws dev.baton.framework.ClientNotStartedException if the client was never started (start it, then this)
     * @throws InterruptedException if the thread is interrupted meanwhile
     */
    public void start() throws InterruptedException {
        value.start();
    }

    /**
     * The count as last seen.
     *
     * @return the count
     */
    public int getCount() {
        return fromBytes(value.path(), value.getValue());
    }

    /**
     * The count as last seen, with the node's version: hand it to {@link #trySetCount}.
     *
     * @return the count and its version
     */
    public VersionedValue<Integer> getVersionedValue() {
        VersionedValue<byte[]> v = value.getVersionedValue();
        return new VersionedValue<>(v.version(), fromBytes(value.path(), v.value()));
    }

    /**
     * Sets the count whatever it was.
     *
     * @param newCount the count
     * @throws InterruptedException if the thread is interrupted meanwhile
     */
    public void setCount(int newCount) throws InterruptedException {
        value.setValue(toBytes(newCount));
    }

    /**
     * Sets the count only if it is still {@code previous} (same version and count as this object
     * last saw, and the node still at that version).
     *
     * @param previous the count and version as read with {@link #getVersionedValue()}
     * @param newCount the count to set
     * @return false if the count changed since {@code previous}
     * @throws InterruptedException if the thread is interrupted meanwhile
     */
    public boolean trySetCount(VersionedValue<Integer> previous, int newCount) throws InterruptedException {
        Objects.requireNonNull(previous, "previous");
        Objects.requireNonNull(previous.value(), "previous.value()");
        return value.trySetValue(new VersionedValue<>(previous.version(), toBytes(previous.value())), toBytes(newCount));
    }

    /**
     * Tells {@code listener} of each new count (adding it twice adds it once).
     *
     * @param listener told on the client's event executor, in order
     */
    public void addListener(SharedCountListener listener) {
        Objects.requireNonNull(listener, "listener");
        SharedValueListener forward = (shared, bytes) -> listener.countHasChanged(this, fromBytes(value.path(), bytes));
        if (listeners.putIfAbsent(listener, forward) == null) {
            value.addListener(forward);
        }
    }

    /**
     * Stops telling {@code listener}.
     *
     * @param listener a listener added before (anything else is ignored)
     */
    public void removeListener(SharedCountListener listener) {
        SharedValueListener forward = listeners.remove(listener);
        if (forward != null) {
            value.removeListener(forward);
        }
    }

    /**
     * The node's path.
     *
     * @return its absolute path
     */
    public String path() {
        return value.path();
    }

    @Override
    public void close() {
        value.close();
        listeners.clear();
    }

    static byte[] toBytes(int count) {
        return ByteBuffer.allocate(Integer.BYTES).putInt(count).array();
    }

    static int fromBytes(String path, byte[] bytes) {
        if (bytes.length < Integer.BYTES) {
            throw new ConfigValueException(path, "SharedCount " + path + ": expected 4 bytes (a big-endian int), was "
                + bytes.length + " bytes", null);
        }
        // as Curator reads it: the first four bytes
        return ByteBuffer.wrap(bytes).getInt();
    }
}
