package dev.baton.recipes.discovery;

import dev.baton.framework.BatonClient;
import dev.baton.framework.BatonException;
import dev.baton.framework.Blocking;
import dev.baton.framework.ClientClosedException;
import dev.baton.framework.ConnectionState;
import dev.baton.framework.ConnectionStateChange;
import dev.baton.framework.ConnectionStateListener;
import dev.baton.framework.CreateBuilder;
import dev.baton.framework.Failures;
import dev.baton.framework.NodeExistsException;
import dev.baton.framework.NodeOwner;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The instances one discovery registered, and the one operation that makes ZooKeeper match them.
 *
 * <p>Each registration is a desired state. {@link #write} makes the instance's node say it:
 * if the node exists and belongs to us (an ephemeral node of the current session, or a
 * persistent node for a persistent type) its data is set when it differs; if it exists but
 * belongs to someone else (typically this client's previous, expired session, whose nodes the
 * servers may not have deleted yet) it is deleted at the version seen and created again; if it
 * is missing it is created. Register, update and re-registration after every (re)connection all
 * run this, one registration at a time under its own lock, so they never interleave.
 *
 * <p>Re-registration runs on one thread of its own, never on the client's event executor
 * (it blocks on ZooKeeper calls).
 */
final class Registrations<T> {
    private static final Logger LOG = LoggerFactory.getLogger(Registrations.class);
    /** How long close() waits for a lost connection to come back before leaving its deletes to the background. */
    static final Duration CLOSE_RECONNECT_WAIT = Duration.ofSeconds(2);

    private final BatonClient client;
    private final String basePath;
    private final InstanceJson<T> json;
    private final Map<String, Entry<T>> byId = new ConcurrentHashMap<>();
    private final ExecutorService reRegistrar;
    private final ConnectionStateListener listener = new ConnectionStateListener() {
        @Override
        public void stateChanged(BatonClient c, ConnectionState newState) {
            // the variant with the session is the one used
        }

        @Override
        public void stateChanged(BatonClient c, ConnectionStateChange change) {
            if (change.state() == ConnectionState.CONNECTED || change.state() == ConnectionState.RECONNECTED) {
                try {
                    reRegistrar.execute(Registrations.this::reRegisterAll);
                } catch (RejectedExecutionException e) {
                    // closed between the event and its delivery: nothing to re-register
                }
            }
        }
    };

    /**
     * One registration; its writes are serialised by {@link #lock}, which is held across the ZooKeeper
     * round trips of a write. A lock and not a monitor, so that a virtual thread that registers does
     * not pin its carrier thread while it waits for the servers (Java 21 to 23 pin on monitors); and
     * taken through {@link Blocking#lock} by callers who may be continuations on the client's fork-join
     * pool: a write can wait for steps that complete on that pool (the create of missing parent
     * folders, the search after a lost reply), which writers parked unseen on the lock, as many as
     * the pool has threads, would keep from running ({@code AsyncContinuationTest}). Reads of
     * {@link #instance} and {@link #removed} take no lock, so they never wait for a write.
     */
    private static final class Entry<T> {
        final ReentrantLock lock = new ReentrantLock();
        /** Written under {@link #lock}; null until the first registration adopts the entry. */
        volatile ServiceInstance<T> instance;
        /** The node as created (with the sequence suffix for DYNAMIC_SEQUENTIAL), null before the first create. */
        String path;
        /** The data last written to {@link #path}. */
        byte[] written;
        /** Written under {@link #lock}. */
        volatile boolean removed;

        /** {@return the registered instance, or null if removed or not yet adopted} */
        ServiceInstance<T> current() {
            ServiceInstance<T> now = instance;
            return removed ? null : now;
        }
    }

    Registrations(BatonClient client, String basePath, InstanceJson<T> json) {
        this.client = client;
        this.basePath = basePath;
        this.json = json;
        this.reRegistrar = Executors.newSingleThreadExecutor(task -> {
            Thread t = new Thread(task, "baton-discovery-register " + basePath);
            t.setDaemon(true);
            return t;
        });
    }

    void start() {
        client.addConnectionStateListener(listener);
    }

    /**
     * Registers (or re-registers) {@code instance}. A failure for lack of a connection leaves the
     * registration in place, written as soon as the client reconnects; any other failure cancels it.
     */
    void register(ServiceInstance<T> instance) throws InterruptedException {
        byte[] bytes = json.encode(instance);
        while (true) {
            Entry<T> entry = byId.computeIfAbsent(instance.id(), id -> new Entry<>());
            Blocking.lock(entry.lock);
            try {
                if (!adopt(entry, instance)) {
                    continue;  // unregistered meanwhile: take a fresh entry
                }
                try {
                    write(entry, bytes);
                } catch (BatonException e) {
                    if (!Failures.isConnectionTrouble(e)) {
                        entry.removed = true;
                        byId.remove(instance.id(), entry);
                    }
                    throw e;
                }
                return;
            } finally {
                entry.lock.unlock();
            }
        }
    }

    /**
     * Registers {@code instance} without waiting for a connection: written now if the client is
     * connected, otherwise kept and written by the re-registrar when the connection comes (as
     * after every reconnection). A connection that fails during the write leaves it to the next
     * connection as well. Bad input (an instance whose JSON is too large, an id registered for
     * another service) fails at once either way.
     */
    void registerWhenConnected(ServiceInstance<T> instance) throws InterruptedException {
        if (client.connectionState().isConnected()) {
            try {
                register(instance);
            } catch (BatonException e) {
                if (!Failures.isConnectionTrouble(e)) {
                    throw e;
                }
                LOG.warn("discovery {}: could not register instance {} of '{}' now ({}); it is written at the next connection",
                    basePath, instance.id(), instance.name(), e.getMessage());
            }
            return;
        }
        json.encode(instance);
        while (true) {
            Entry<T> entry = byId.computeIfAbsent(instance.id(), id -> new Entry<>());
            Blocking.lock(entry.lock);
            try {
                if (adopt(entry, instance)) {
                    break;
                }
            } finally {
                entry.lock.unlock();
            }
        }
        // the connection may have come between the look above and the entry: its event's
        // re-registration may have run without it, so write it now
        if (client.connectionState().isConnected()) {
            try {
                reRegistrar.execute(this::reRegisterAll);
            } catch (RejectedExecutionException e) {
                // closed meanwhile: nothing to write
            }
        }
    }

    /**
     * Makes {@code entry} hold {@code instance}; false if the entry was removed (take a fresh one).
     * Call with the entry's lock held.
     */
    private static <T> boolean adopt(Entry<T> entry, ServiceInstance<T> instance) {
        if (entry.removed) {
            return false;
        }
        if (entry.instance != null && !entry.instance.name().equals(instance.name())) {
            throw new IllegalArgumentException("instance id " + instance.id() + " is already registered for service '"
                + entry.instance.name() + "', not '" + instance.name() + "'");
        }
        entry.instance = instance;
        return true;
    }

    /** Replaces a registered instance's data. */
    void update(ServiceInstance<T> instance) throws InterruptedException {
        byte[] bytes = json.encode(instance);
        Entry<T> entry = byId.get(instance.id());
        if (entry == null) {
            throw notRegistered(instance);
        }
        Blocking.lock(entry.lock);
        try {
            if (entry.removed) {
                throw notRegistered(instance);
            }
            if (!entry.instance.name().equals(instance.name())) {
                throw new IllegalArgumentException("instance " + instance.id() + " is registered for service '" + entry.instance.name()
                    + "'; an update cannot move it to '" + instance.name() + "'");
            }
            entry.instance = instance;
            write(entry, bytes);
        } finally {
            entry.lock.unlock();
        }
    }

    /** Removes a registration and its node; false if it was not registered here. */
    boolean unregister(String id) throws InterruptedException {
        return unregister(id, true);
    }

    /** Forgets {@code id} and deletes its node, waiting for the delete or ({@code wait} false) not. */
    private boolean unregister(String id, boolean wait) throws InterruptedException {
        Entry<T> entry = byId.remove(id);
        if (entry == null) {
            return false;
        }
        Blocking.lock(entry.lock);
        try {
            entry.removed = true;
            if (entry.path != null) {
                // guaranteed: if the connection is down, the delete keeps trying in the background
                var delete = client.delete().guaranteed().quietly();
                if (wait) {
                    delete.forPath(entry.path);
                } else {
                    delete.forPathAsync(entry.path).exceptionally(e -> null);
                }
            }
        } finally {
            entry.lock.unlock();
        }
        return true;
    }

    /** The registered instance with {@code id}, or null. */
    ServiceInstance<T> get(String id) {
        Entry<T> entry = byId.get(id);
        return entry == null ? null : entry.current();
    }

    List<ServiceInstance<T>> instances() {
        List<ServiceInstance<T>> all = new ArrayList<>();
        for (Entry<T> entry : byId.values()) {
            ServiceInstance<T> instance = entry.current();
            if (instance != null) {
                all.add(instance);
            }
        }
        return all;
    }

    /**
     * Stops re-registering and removes every node registered here except PERMANENT ones. Without
     * a connection (after waiting {@link #CLOSE_RECONNECT_WAIT} for one) it does not wait for the
     * ensemble to remove ephemeral nodes: their deletes go on in the background while the client
     * stays open, and the nodes go with the session in any case. A STATIC node is persistent and
     * would stay, so its delete is waited for as long as the client's retry policy allows.
     */
    void close() {
        client.removeConnectionStateListener(listener);
        reRegistrar.shutdownNow();
        if (client.isClosed()) {
            forgetAfterClientClosed();
            return;
        }
        if (byId.isEmpty()) {
            return; // nothing to remove: no reason to wait for a connection
        }
        boolean connected;
        try {
            connected = client.connectionState().isConnected() || client.blockUntilConnected(CLOSE_RECONNECT_WAIT);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            connected = false;
        } catch (ClientClosedException e) {
            forgetAfterClientClosed();
            return;
        }
        for (Entry<T> entry : List.copyOf(byId.values())) {
            ServiceInstance<T> instance = entry.instance;
            if (instance == null) {
                continue;  // a registration still being made: its register() call reports the outcome
            }
            if (instance.serviceType() == ServiceType.PERMANENT) {
                byId.remove(instance.id(), entry);
                continue;
            }
            boolean inBackground = !connected && instance.serviceType().isEphemeral();
            if (inBackground) {
                LOG.warn("discovery {}: no connection on close; instance {} of '{}' is removed in the background"
                    + " while the client stays open, and goes with its session in any case", basePath, instance.id(), instance.name());
            }
            try {
                unregister(instance.id(), !inBackground);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (BatonException e) {
                LOG.warn("discovery {}: could not remove instance {} of '{}' on close ({}); {}", basePath, instance.id(),
                    instance.name(), e.getMessage(), instance.serviceType().isEphemeral() ? "its node goes with the session"
                        : "its node is persistent (STATIC) and stays until unregisterService removes it");
            }
        }
    }

    /**
     * The client was closed before the discovery: its session, and every ephemeral node of it, is
     * gone, and nothing can be deleted any more; a STATIC node stays, and the log says so.
     */
    private void forgetAfterClientClosed() {
        for (Entry<T> entry : List.copyOf(byId.values())) {
            entry.lock.lock();
            try {
                entry.removed = true;
                if (entry.instance != null && entry.instance.serviceType() == ServiceType.STATIC) {
                    LOG.warn("discovery {}: the client was closed before the discovery; STATIC instance {} of '{}' stays"
                        + " until unregisterService removes it", basePath, entry.instance.id(), entry.instance.name());
                }
            } finally {
                entry.lock.unlock();
            }
        }
        byId.clear();
    }

    private void reRegisterAll() {
        for (Entry<T> entry : List.copyOf(byId.values())) {
            entry.lock.lock();
            try {
                if (entry.removed) {
                    continue;
                }
                try {
                    write(entry, json.encode(entry.instance));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                } catch (BatonException e) {
                    // a connection problem is retried at the next (re)connection; anything else needs a person
                    LOG.warn("discovery {}: could not re-register instance {} of '{}': {}", basePath, entry.instance.id(),
                        entry.instance.name(), e.getMessage());
                }
            } finally {
                entry.lock.unlock();
            }
        }
    }

    /** Makes the entry's node exist with {@code bytes}, owned as its type requires. Call with the entry's lock held. */
    private void write(Entry<T> entry, byte[] bytes) throws InterruptedException {
        ServiceInstance<T> instance = entry.instance;
        CreateMode mode = instance.serviceType().createMode();
        String named = Names.join(Names.join(basePath, instance.name()), instance.id());
        // a first registration usually finds no node: try the create alone (one round trip), look only if it exists
        if (entry.written == null && !mode.isSequential() && create(entry, mode, named, bytes, false)) {
            return;
        }
        if (entry.path == null && !mode.isSequential()) {
            entry.path = named;
        }
        if (entry.path != null) {
            long session = client.sessionId();
            Stat stat = client.checkExists().forPath(entry.path);
            if (stat != null && owns(stat, mode, session)) {
                if (!Arrays.equals(entry.written, bytes)) {
                    client.setData().forPath(entry.path, bytes);
                    entry.written = bytes;
                }
                return;
            }
            if (stat != null) {
                LOG.info("discovery: replacing {} (owned by session 0x{}, this client is on 0x{})", entry.path,
                    Long.toHexString(stat.getEphemeralOwner()), Long.toHexString(session));
                client.delete().withVersion(stat.getVersion()).quietly().forPath(entry.path);
            }
            if (mode.isSequential()) {
                entry.path = null;
            }
        }
        create(entry, mode, named, bytes, true);
    }

    /**
     * Creates the entry's node; returns false if it exists already (or throws, if {@code mustCreate}:
     * another session registered the same id between our look and our create).
     */
    private boolean create(Entry<T> entry, CreateMode mode, String named, byte[] bytes, boolean mustCreate) throws InterruptedException {
        CreateBuilder create = client.create().withMode(mode).creatingParentContainersIfNeeded();
        try {
            // idempotent: a create retried after a lost reply finds its own node instead of failing
            entry.path = (mode.isSequential() ? create : create.idempotent()).forPath(named, bytes);
            entry.written = bytes;
            return true;
        } catch (NodeExistsException e) {
            if (!mustCreate) {
                return false;
            }
            ServiceInstance<T> instance = entry.instance;
            throw new DiscoveryException("instance " + instance.id() + " of '" + instance.name() + "' was just registered by"
                + " another session: instance ids must be unique", e);
        }
    }

    private static boolean owns(Stat stat, CreateMode mode, long session) {
        return mode.isEphemeral() ? NodeOwner.isOwnedBy(stat, session) : !NodeOwner.isEphemeral(stat);
    }

    private static DiscoveryException notRegistered(ServiceInstance<?> instance) {
        return new DiscoveryException("instance " + instance.id() + " of '" + instance.name()
            + "' is not registered by this discovery: registerService it first");
    }
}
