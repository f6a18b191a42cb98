package dev.baton.framework;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.zookeeper.CreateMode;

/**
 * Several operations applied atomically (ZooKeeper's multi): all of them or none.
 *
 * <pre>{@code
 * client.transaction()
 *     .check("/locks/x/_c_..-lock-0000000007", 0)   // only while I hold the lock
 *     .setData("/resource", newValue)
 *     .commit();
 * }</pre>
 *
 * <p>Failure throws {@link TransactionFailedException}, which says which operation failed and why.
 * A commit whose reply is lost is retried; it is not idempotent in general (a retried create finds
 * its node existing), so transactions that must run exactly once should carry a check.
 */
public interface TransactionBuilder {
    /**
     * Adds the creation of a persistent node.
     *
     * @param path the node's path
     * @param data its data
     * @return this builder
     */
    TransactionBuilder create(String path, byte[] data);

    /**
     * Adds the creation of a node in {@code mode}.
     *
     * @param path the node's path (the prefix, for a sequential node)
     * @param data its data
     * @param mode its mode
     * @return this builder
     */
    TransactionBuilder create(String path, byte[] data, CreateMode mode);

    /**
     * Adds a write of a node's data, at any version.
     *
     * @param path the node's path
     * @param data the new data
     * @return this builder
     */
    TransactionBuilder setData(String path, byte[] data);

    /**
     * Adds a write of a node's data, only at {@code version}.
     *
     * @param path the node's path
     * @param data the new data
     * @param version the version the node must have, or -1 for any
     * @return this builder
     */
    TransactionBuilder setData(String path, byte[] data, int version);

    /**
     * Adds the deletion of a node, at any version.
     *
     * @param path the node's path
     * @return this builder
     */
    TransactionBuilder delete(String path);

    /**
     * Adds the deletion of a node, only at {@code version}.
     *
     * @param path the node's path
     * @param version the version the node must have, or -1 for any
     * @return this builder
     */
    TransactionBuilder delete(String path, int version);

    /**
     * Fails the transaction unless the node exists at {@code version} (-1: at any version).
     *
     * @param path the node's path
     * @param version the version the node must have, or -1 for "it exists"
     * @return this builder
     */
    TransactionBuilder check(String path, int version);

    /**
     * Operations added so far.
     *
     * @return how many operations were added
     */
    int size();

    /**
     * Applies every operation atomically; returns what each one did, in order.
     *
     * @return each operation's result, in the order they were added
     * @throws InterruptedException if the calling thread is interrupted while it waits for the reply
     */
    List<TransactionResult> commit() throws InterruptedException;

    /**
     * {@link #commit()} without blocking a thread.
     *
     * @return each operation's result, in order, or the failure
     */
    CompletableFuture<List<TransactionResult>> commitAsync();
}
