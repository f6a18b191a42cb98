package dev.baton.recipes.group;

import dev.baton.framework.BatonClient;
import dev.baton.framework.CreatedNode;
import dev.baton.framework.NoNodeException;
import dev.baton.framework.NodeData;
import dev.baton.framework.ZPaths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apache.zookeeper.CreateMode;

/**
 * A naming service: cluster-unique names under namespaces, such as {@code /business/metrics0000000001}
 * and {@code /business/metrics0000000002} under {@code /business}, each with data, to look up,
 * list and release.
 *
 * <p>Layout and algorithm: a name is a sequential node in its namespace, made by the framework's
 * protected create: {@code register("/business/metrics", data)} creates
 * {@code /business/_c_<uuid>-metrics0000000001} and returns the name
 * {@code /business/metrics0000000001} — the namespace, the prefix and ZooKeeper's sequence number,
 * without the protection. A lookup or release lists the namespace once to find the node of a
 * name. Namespaces are created as persistent nodes and never deleted by the service.
 *
 * <p>Guarantees and caveats: a name is unique in its namespace for the namespace's whole life,
 * because ZooKeeper never repeats a sequence number under one parent; a namespace deleted by hand
 * starts counting again, so do not delete namespaces. Registration is idempotent across a lost
 * reply: a retried create finds the node the first attempt made, so one call registers one name,
 * and a call that fails for good leaves no name behind (the framework deletes it in the
 * background). An {@link NameLifetime#EPHEMERAL} name goes with its registrant's session (and is
 * not registered again: a new registration is a new name); a {@link NameLifetime#PERSISTENT} one
 * lasts until released. Lookups and listings are reads of one server: a name registered a moment
 * ago by another client may not be seen yet. A namespace is listed in one reply, so keep one
 * below some 20,000 names (ZooKeeper's 1 MiB reply limit).
 *
 * <pre>{@code
 * NamingService names = new NamingService(client);
 * RegisteredName metrics = names.register("/business/metrics", endpoint);   // /business/metrics0000000001
 * Optional<NameEntry> found = names.lookup(metrics.name());
 * List<String> all = names.list("/business");
 * names.release(metrics.name());
 * }</pre>
 */
public final class NamingService {
    private final BatonClient client;

    /**
     * A naming service over {@code client}. It keeps no state of its own: any number may share a client.
     *
     * @param client the client names are registered and looked up through
     */
    public NamingService(BatonClient client) {
        this.client = Objects.requireNonNull(client, "client");
    }

    /**
     * Registers a persistent name: {@link #register(String, byte[], NameLifetime)} with {@link NameLifetime#PERSISTENT}.
     *
     * @param prefix the namespace and the name's prefix, {@code /business/metrics}
     * @param data the name's data
     * @return the name registered
     * @throws InterruptedException if the calling thread is interrupted while it waits for the servers
     */
    public RegisteredName register(String prefix, byte[] data) throws InterruptedException {
        return register(prefix, data, NameLifetime.PERSISTENT);
    }

    /**
     * Registers a new name: {@code prefix} ({@code /business/metrics}: namespace {@code /business},
     * prefix {@code metrics}) followed by the next sequence number of the namespace.
     *
     * @param prefix the namespace and the name's prefix, {@code /business/metrics}
     * @param data the name's data
     * @param lifetime whether the name ends with this client's session or lasts until released
     * @return the name registered
     * @throws InterruptedException if the calling thread is interrupted while it waits for the servers
     * @throws dev.baton.framework.InvalidPathException if {@code prefix} is not a valid path below the root
     */
    public RegisteredName register(String prefix, byte[] data, NameLifetime lifetime) throws InterruptedException {
        String path = checkPrefix(prefix);
        Objects.requireNonNull(data, "data");
        Objects.requireNonNull(lifetime, "lifetime");
        CreateMode mode = lifetime == NameLifetime.EPHEMERAL ? CreateMode.EPHEMERAL_SEQUENTIAL : CreateMode.PERSISTENT_SEQUENTIAL;
        // protection makes a retry after a lost reply find this call's node instead of registering a second name
        CreatedNode node = client.create().withMode(mode).withProtection().creatingParentsIfNeeded().forPathWithStat(path, data);
        String name = ProtectedNames.withoutProtection(node.name());
        return new RegisteredName(ZPaths.join(ZPaths.parent(path), name), node.path(), ProtectedNames.sequence(name), lifetime,
            node.stat().getCzxid());
    }

    /**
     * The name {@code name} ({@code /business/metrics0000000001}) with its data, or empty if it is
     * not registered (never was, or was released).
     *
     * @param name a name as {@link #register} returned it
     * @return the name's entry, or empty
     * @throws InterruptedException if the calling thread is interrupted while it waits for the servers
     * @throws IllegalArgumentException if {@code name} does not end with a 10-digit sequence number
     */
    public Optional<NameEntry> lookup(String name) throws InterruptedException {
        Optional<String> node = nodeOf(checkName(name));
        if (node.isEmpty()) {
            return Optional.empty();
        }
        try {
            NodeData found = client.getData().forPathWithStat(node.get());
            return Optional.of(new NameEntry(name, node.get(), found.data(), found.stat()));
        } catch (NoNodeException released) {
            return Optional.empty();
        }
    }

    /**
     * The names registered in a namespace, in the order they were registered.
     *
     * @param namespace the namespace, {@code /business}
     * @return its names, {@code /business/metrics0000000001}, ...; none if the namespace does not exist
     * @throws InterruptedException if the calling thread is interrupted while it waits for the servers
     */
    public List<String> list(String namespace) throws InterruptedException {
        String parent = ZPaths.validate("NamingService", Objects.requireNonNull(namespace, "namespace"));
        List<String> names = new ArrayList<>();
        for (String child : children(parent)) {
            String name = ProtectedNames.withoutProtection(child);
            if (ProtectedNames.sequence(name) >= 0) {
                names.add(name);
            }
        }
        names.sort(Comparator.comparingLong(ProtectedNames::sequence).thenComparing(Comparator.naturalOrder()));
        return names.stream().map(name -> ZPaths.join(parent, name)).toList();
    }

    /**
     * Releases {@code name}: deletes its node (whoever registered it). Returns false if it was not
     * registered. A released name is never handed out again.
     *
     * @param name a name as {@link #register} returned it
     * @return true if this call released it, false if it was not registered
     * @throws InterruptedException if the calling thread is interrupted while it waits for the servers
     * @throws IllegalArgumentException if {@code name} does not end with a 10-digit sequence number
     */
    public boolean release(String name) throws InterruptedException {
        Optional<String> node = nodeOf(checkName(name));
        if (node.isEmpty()) {
            return false;
        }
        try {
            client.delete().forPath(node.get());
            return true;
        } catch (NoNodeException alreadyGone) {
            return false;
        }
    }

    /** The node that holds {@code name}: the child of its namespace with that name, protected or not. */
    private Optional<String> nodeOf(String name) throws InterruptedException {
        String parent = ZPaths.parent(name);
        String wanted = ZPaths.name(name);
        for (String child : children(parent)) {
            if (ProtectedNames.withoutProtection(child).equals(wanted)) {
                return Optional.of(ZPaths.join(parent, child));
            }
        }
        return Optional.empty();
    }

    private List<String> children(String parent) throws InterruptedException {
        try {
            return client.getChildren().forPath(parent);
        } catch (NoNodeException noNamespace) {
            return List.of();
        }
    }

    private static String checkPrefix(String prefix) {
        String path = ZPaths.validate("NamingService", Objects.requireNonNull(prefix, "prefix"));
        if (path.equals("/")) {
            throw new IllegalArgumentException("a name prefix is a path below the root, such as /business/metrics; was /");
        }
        return path;
    }

    private static String checkName(String name) {
        String path = ZPaths.validate("NamingService", Objects.requireNonNull(name, "name"));
        if (path.equals("/") || ProtectedNames.sequence(ZPaths.name(path)) < 0) {
            throw new IllegalArgumentException("a registered name ends with a " + ProtectedNames.SEQUENCE_DIGITS
                + "-digit sequence number, such as /business/metrics0000000001; was " + name);
        }
        return path;
    }
}
