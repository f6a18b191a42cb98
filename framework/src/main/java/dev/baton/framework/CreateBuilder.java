package dev.baton.framework;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.data.ACL;

/**
 * Creates a node: {@code client.create().withMode(EPHEMERAL).creatingParentsIfNeeded().forPath("/a/b", data)}.
 *
 * <p>Without data the node gets empty data. Without an ACL it gets the client's
 * {@link AclProvider}'s. Each setting can be given in any order; the terminal call
 * ({@code forPath...}) runs the operation, retried by the client's retry policy.
 */
public interface CreateBuilder {
    /**
     * Persistent (the default), ephemeral, sequential, container or TTL.
     *
     * @param mode the node's mode
     * @return this builder
     */
    CreateBuilder withMode(CreateMode mode);

    /**
     * Time to live of a TTL node (needs {@code PERSISTENT_WITH_TTL} or {@code
     * PERSISTENT_SEQUENTIAL_WITH_TTL}).
     *
     * @param ttl how long the node lives without a change or a child
     * @return this builder
     */
    CreateBuilder withTtl(Duration ttl);

    /**
     * The node's ACL (parents created on the way get the ACL provider's).
     *
     * @param acl the node's ACL (parents created on the way get the ACL provider's)
     * @return this builder
     */
    CreateBuilder withAcl(List<ACL> acl);

    /**
     * Creates missing parents as persistent nodes.
     *
     * @return this builder
     */
    CreateBuilder creatingParentsIfNeeded();

    /**
     * Creates missing parents as container nodes, which the servers delete once they are empty
     * (recipes use this so their folders do not accumulate).
     *
     * @return this builder
     */
    CreateBuilder creatingParentContainersIfNeeded();

    /**
     * Prefixes the node's name with {@code _c_<uuid>-} (Curator's protection), so that after a
     * lost reply the client finds the node it already created instead of creating a second one;
     * if the create finally fails or is cancelled, that node is deleted in the background.
     *
     * <p>The uuid is new for every create call (its retries share it), so the name alone tells
     * this create's node from any other's; the data is stored as given. An ephemeral node found
     * under an earlier, expired session is deleted and the create sent again.
     *
     * @return this builder
     */
    CreateBuilder withProtection();

    /**
     * Prefixes the node's name with {@code x-<sessionId>-} (the ZooKeeper recipes' form), with
     * the same guarantees as {@link #withProtection()}: after a lost reply the client adopts the
     * node this create made, and a create that finally fails or is cancelled deletes it.
     *
     * <p>Every create of one session in one folder shares that prefix, so the name cannot tell
     * them apart. Each create therefore draws a random id and stores it ahead of the data: the
     * node holds a 24-byte mark — the magic {@code 00 62 61 74 6f 6e 78 01} and the 16-byte id —
     * then {@code data}. Recovery adopts, and clean-up deletes, only the node named like this
     * create (under any session it was sent in) whose data carries its id; never a sibling of the
     * same session. {@code getData()} (and every cache and recipe built on it) returns {@code data}
     * without the mark: it drops the first 24 bytes of a node whose name starts with {@code x-}
     * and whose data starts with the magic. Caveats: a plain ZooKeeper reader sees the mark,
     * {@code Stat.getDataLength()} counts it, it counts towards the request size limit, and
     * recovery reads the candidates' data, so the node's ACL must let its creator read it.
     *
     * @return this builder
     */
    CreateBuilder withSessionProtection();

    /**
     * If the node exists, sets its data instead (any version).
     *
     * @return this builder
     */
    CreateBuilder orSetData();

    /**
     * If a retried create finds the node already there with the same data (and, for an ephemeral
     * node, owned by this session), counts that as success rather than NodeExists.
     *
     * @return this builder
     */
    CreateBuilder idempotent();

    /**
     * Creates the node with empty data; returns its path (with sequence and protection).
     *
     * @param path the node's path (for a sequential node, the prefix the sequence is appended to)
     * @return the created node's path, with its sequence and protection
     * @throws InterruptedException if the calling thread is interrupted while it waits for the reply
     */
    String forPath(String path) throws InterruptedException;

    /**
     * Creates the node with {@code data}; returns its path (with sequence and protection).
     *
     * @param path the node's path (for a sequential node, the prefix the sequence is appended to)
     * @param data the node's data
     * @return the created node's path, with its sequence and protection
     * @throws InterruptedException if the calling thread is interrupted while it waits for the reply
     */
    String forPath(String path, byte[] data) throws InterruptedException;

    /**
     * Creates the node and returns its path and stat (the stat's czxid is its fencing token).
     *
     * @param path the node's path (for a sequential node, the prefix the sequence is appended to)
     * @param data the node's data
     * @return the created node's path and stat
     * @throws InterruptedException if the calling thread is interrupted while it waits for the reply
     */
    CreatedNode forPathWithStat(String path, byte[] data) throws InterruptedException;

    /**
     * {@link #forPath(String)} without blocking a thread.
     *
     * @param path the node's path (for a sequential node, the prefix the sequence is appended to)
     * @return the created node's path, or the failure
     */
    CompletableFuture<String> forPathAsync(String path);

    /**
     * {@link #forPath(String, byte[])} without blocking a thread.
     *
     * @param path the node's path (for a sequential node, the prefix the sequence is appended to)
     * @param data the node's data
     * @return the created node's path, or the failure
     */
    CompletableFuture<String> forPathAsync(String path, byte[] data);

    /**
     * {@link #forPathWithStat(String, byte[])} without blocking a thread.
     *
     * @param path the node's path (for a sequential node, the prefix the sequence is appended to)
     * @param data the node's data
     * @return the created node's path and stat, or the failure
     */
    CompletableFuture<CreatedNode> forPathWithStatAsync(String path, byte[] data);
}
