package dev.baton.spring.integration;

import dev.baton.framework.BatonClient;
import dev.baton.recipes.lock.InterProcessMutex;
import dev.baton.recipes.lock.LockOwnershipLostException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import org.springframework.integration.support.locks.ExpirableLockRegistry;
import org.springframework.integration.support.locks.RenewableLockRegistry;

/**
 * A Spring Integration lock registry on Baton's {@link InterProcessMutex}: {@code obtain(key)}
 * gives the key's {@link BatonLock}, a {@link java.util.concurrent.locks.Lock} shared by every
 * process (and every thread) that obtains the same key from a registry on the same ensemble.
 *
 * <p>Each key's lock lives in its own folder, by default {@code root + "/" + key}. The default
 * root is Spring Integration's {@code ZookeeperLockRegistry}'s and the mutex keeps Curator's
 * node layout, so during a migration a service on Spring Integration's Curator registry and one
 * on this registry exclude each other on the same keys. Locks are cached per key (the same key
 * gives the same object) up to a capacity; the least recently used idle locks go first, and a
 * lock some thread holds is never evicted. {@link #expireUnusedOlderThan} drops idle locks
 * sooner.
 *
 * <p>Where Spring Integration's ZooKeeper registry is silent about a lost lock, this one is
 * loud: {@link BatonLock#isValid()}, {@link BatonLock#onLost}, and a
 * {@link LockOwnershipLostException} from the next {@code lock()} or the last {@code unlock()};
 * and each hold carries a fencing token ({@link BatonLock#fencingToken()}).
 *
 * <p>{@link #renewLock} exists for code written against {@link RenewableLockRegistry}: a
 * ZooKeeper lock has no time to live to extend (it lasts as long as the holder's session), so a
 * renewal only checks that the calling thread still holds a valid lock, and throws if not.
 *
 * <pre>{@code
 * BatonLockRegistry registry = new BatonLockRegistry(client);
 * registry.executeLocked("orders", () -> ship(order));
 * }</pre>
 */
public final class BatonLockRegistry implements ExpirableLockRegistry, RenewableLockRegistry {
    /** The default folder of the locks: Spring Integration's ZookeeperLockRegistry's. */
    public static final String DEFAULT_ROOT = "/SpringIntegration-LockRegistry";
    /** How many idle locks are kept by default. */
    public static final int DEFAULT_CACHE_CAPACITY = 30_000;

    private final BatonClient client;
    private final Function<String, String> keyToPath;
    // guarded by itself; access order, so iteration starts at the least recently obtained lock
    private final LinkedHashMap<String, BatonLock> locks = new LinkedHashMap<>(16, 0.75f, true);
    private int cacheCapacity = DEFAULT_CACHE_CAPACITY;

    /**
     * A registry whose locks live under {@link #DEFAULT_ROOT}.
     *
     * @param client the client whose sessions hold the locks
     */
    public BatonLockRegistry(BatonClient client) {
        this(client, DEFAULT_ROOT);
    }

    /**
     * A registry whose lock for key {@code k} lives at {@code root + "/" + k}.
     *
     * @param client the client whose sessions hold the locks
     * @param root the folder of the locks, such as {@code /locks}
     */
    public BatonLockRegistry(BatonClient client, String root) {
        this(client, pathsUnder(root));
    }

    /**
     * A registry that puts each key's lock at the path {@code keyToPath} gives.
     *
     * @param client the client whose sessions hold the locks
     * @param keyToPath the lock folder of a key (a valid recipe path)
     */
    public BatonLockRegistry(BatonClient client, Function<String, String> keyToPath) {
        this.client = Objects.requireNonNull(client, "client");
        this.keyToPath = Objects.requireNonNull(keyToPath, "keyToPath");
    }

    private static Function<String, String> pathsUnder(String root) {
        Objects.requireNonNull(root, "root");
        String base = root.endsWith("/") ? root.substring(0, root.length() - 1) : root;
        return key -> base + "/" + key;
    }

    /**
     * {@return the lock of {@code lockKey} (its {@code toString()}): the same object for the same key
     * while it is cached}
     *
     * @param lockKey the key; its string form must be a valid znode name (or path suffix)
     * @throws dev.baton.framework.InvalidPathException if the key's path is not a valid recipe path
     */
    @Override
    public BatonLock obtain(Object lockKey) {
        String key = Objects.requireNonNull(lockKey, "lockKey").toString();
        synchronized (locks) {
            BatonLock lock = locks.get(key);
            if (lock == null) {
                lock = new BatonLock(key, new InterProcessMutex(client, keyToPath.apply(key)));
                locks.put(key, lock);
                trimTo(cacheCapacity);
            }
            return lock;
        }
    }

    /**
     * Drops from the cache the locks no thread holds and nobody used for {@code age} milliseconds.
     * A dropped lock is only forgotten here: the next {@link #obtain} of its key makes a new one.
     *
     * @param age milliseconds since the last lock or unlock (0 or less: every idle lock)
     */
    @Override
    public void expireUnusedOlderThan(long age) {
        long now = System.currentTimeMillis();
        synchronized (locks) {
            locks.values().removeIf(lock -> !lock.isLocked() && now - lock.lastUsedMillis() >= age);
        }
    }

    /**
     * Checks that the calling thread still holds the lock of {@code lockKey}, validly. A ZooKeeper
     * lock has no time to live: it lasts while the holder's session does, so there is nothing to
     * extend.
     *
     * @param lockKey the key
     * @throws IllegalStateException if the calling thread does not hold that key's lock
     * @throws LockOwnershipLostException if it held it but the hold was lost
     */
    @Override
    public void renewLock(Object lockKey) {
        String key = Objects.requireNonNull(lockKey, "lockKey").toString();
        BatonLock lock;
        synchronized (locks) {
            lock = locks.get(key);
        }
        if (lock == null || !lock.isHeldByCurrentThread()) {
            throw new IllegalStateException("cannot renew the lock for key '" + key + "': thread '"
                + Thread.currentThread().getName() + "' does not hold it");
        }
        if (!lock.isValid()) {
            throw new LockOwnershipLostException("cannot renew the lock for key '" + key + "': it was lost ("
                + lock.currentLease().lossReason().orElse("lost") + ")");
        }
    }

    /**
     * Sets how many locks the cache keeps; the least recently obtained idle ones beyond it are dropped
     * now and as new keys arrive (held locks are kept even beyond it).
     *
     * @param capacity at least 1
     * @throws IllegalArgumentException if {@code capacity} is less than 1
     */
    public void setCacheCapacity(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("cache capacity must be at least 1, was " + capacity);
        }
        synchronized (locks) {
            this.cacheCapacity = capacity;
            trimTo(capacity);
        }
    }

    /** {@return the keys whose locks are cached now, least recently obtained first} */
    public List<String> cachedKeys() {
        synchronized (locks) {
            return List.copyOf(locks.keySet());
        }
    }

    /** Drops the least recently obtained idle locks until at most {@code capacity} remain (held ones stay). */
    private void trimTo(int capacity) {
        Iterator<Map.Entry<String, BatonLock>> eldestFirst = locks.entrySet().iterator();
        while (locks.size() > capacity && eldestFirst.hasNext()) {
            if (!eldestFirst.next().getValue().isLocked()) {
                eldestFirst.remove();
            }
        }
    }

    @Override
    public String toString() {
        synchronized (locks) {
            return "BatonLockRegistry[" + locks.size() + " cached locks]";
        }
    }
}
