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
    TransactionBuilder create(String path, byte[] data);

    TransactionBuilder create(String path, byte[] data, CreateMode mode);

    TransactionBuilder setData(String path, byte[] data);

    TransactionBuilder setData(String path, byte[] data, int version);

    TransactionBuilder delete(String path);

    TransactionBuilder delete(String path, int version);

    /** Fails the transaction unless the node exists at {@code version} (-1: at any version). */
    TransactionBuilder check(String path, int version);

    /** Operations added so far. */
    int size();

    /** Applies every operation atomically; returns what each one did, in order. */
    List<TransactionResult> commit() throws InterruptedException;

    CompletableFuture<List<TransactionResult>> commitAsync();
}
