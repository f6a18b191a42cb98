package dev.baton.recipes.transaction;

import dev.baton.framework.BadVersionException;
import dev.baton.framework.BatonClient;
import dev.baton.framework.ClientClosedException;
import dev.baton.framework.NoNodeException;
import dev.baton.framework.NodeExistsException;
import dev.baton.framework.NotEmptyException;
import dev.baton.framework.TransactionFailedException;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** Fresh reads of a transaction's nodes, and what a failed step means for the site that tried it. */
final class Reads {
    private Reads() {
    }

    /**
     * The transaction at {@code txPath} as the servers have it now (empty if it is gone): its
     * node, then its children, the votes' and the decision's data included. A read that follows a
     * write of the same client sees that write and everything before it.
     */
    static CompletableFuture<Optional<TransactionStatus>> status(BatonClient client, String txPath) {
        String id = txPath.substring(txPath.lastIndexOf('/') + 1);
        return client.getData().forPathWithStatAsync(txPath)
            .thenCompose(node -> client.getChildren().forPathAsync(txPath)
                .thenCompose(names -> withChildren(client, txPath, Codec.transaction(id, node.data()), node.stat().getCtime(), names)))
            .thenApply(Optional::of)
            .exceptionally(e -> {
                // the node or a child vanished while we read: a transaction's nodes are only ever
                // deleted all together, so it is gone
                if (unwrap(e) instanceof NoNodeException) {
                    return Optional.empty();
                }
                throw e instanceof CompletionException c ? c : new CompletionException(e);
            });
    }

    /**
     * The status of {@code tx} (created at {@code ctime}) whose children are {@code names}: the
     * votes' and the decision's data are read, the other children count by name only. Fails with
     * {@link NoNodeException} if a child is gone (the transaction's nodes go all together).
     */
    private static CompletableFuture<TransactionStatus> withChildren(BatonClient client, String txPath, Transaction tx, long ctime,
                                                                     List<String> names) {
        Map<String, byte[]> children = new TreeMap<>();
        List<CompletableFuture<Void>> reads = names.stream()
            .map(name -> {
                if (!name.startsWith(Layout.VOTE_PREFIX) && !name.equals(Layout.DECISION)) {
                    synchronized (children) {
                        children.put(name, new byte[0]); // only the name matters
                    }
                    return CompletableFuture.<Void>completedFuture(null);
                }
                return client.getData().forPathAsync(txPath + "/" + name).thenAccept(data -> {
                    synchronized (children) {
                        children.put(name, data);
                    }
                });
            })
            .toList();
        return CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new))
            .thenApply(v -> {
                synchronized (children) {
                    return TransactionStatus.of(tx, ctime, children);
                }
            });
    }

    /**
     * The transaction {@code tx} at {@code txPath} as {@link #status} reads it, if its children's
     * names show a decision or a vote from every participant; empty if they do not (a vote is
     * still missing: there is nothing to record or to tell yet) or if it is gone. One read of the
     * names first, so a site whose vote did not complete the set pays one round trip, not N + 2;
     * a site whose vote did reads then only the votes and the decision those names show (the
     * transaction node's data never changes, and this site has it). Read after this site's own
     * vote, it sees that vote and every write before it: of the voters, the one whose vote came
     * last sees every vote.
     */
    static CompletableFuture<Optional<TransactionStatus>> statusIfVotedOrDecided(BatonClient client, String txPath, Transaction tx) {
        return client.getChildren().forPathWithStatAsync(txPath)
            .thenCompose(node -> {
                Set<String> present = new HashSet<>(node.children());
                boolean worthReading = present.contains(Layout.DECISION)
                    || tx.participants().stream().allMatch(p -> present.contains(Layout.VOTE_PREFIX + p));
                return worthReading
                    ? withChildren(client, txPath, tx, node.stat().getCtime(), node.children()).thenApply(Optional::of)
                    : CompletableFuture.completedFuture(Optional.<TransactionStatus>empty());
            })
            .exceptionally(e -> {
                if (unwrap(e) instanceof NoNodeException) {
                    return Optional.empty(); // gone
                }
                throw e instanceof CompletionException c ? c : new CompletionException(e);
            });
    }

    /**
     * The names of the children of the transaction at {@code txPath} if, as the servers have it
     * now, it is decided and every participant and the coordinator acknowledged it; empty if not,
     * or if it is gone. Two reads (the node for its participants, then its children's names), where
     * {@link #status} also reads every vote and the decision. A read that follows a write of the
     * same client sees that write and everything before it.
     */
    static CompletableFuture<Optional<List<String>>> childrenIfFullyAcknowledged(BatonClient client, String txPath) {
        String id = txPath.substring(txPath.lastIndexOf('/') + 1);
        return client.getData().forPathAsync(txPath)
            .thenCompose(data -> client.getChildren().forPathAsync(txPath).thenApply(names -> {
                Set<String> present = new HashSet<>(names);
                boolean all = present.contains(Layout.DECISION) && present.contains(Layout.COORDINATOR_ACK)
                    && Codec.transaction(id, data).participants().stream().allMatch(p -> present.contains(Layout.ACK_PREFIX + p));
                return all ? Optional.of(names) : Optional.<List<String>>empty();
            }))
            .exceptionally(e -> {
                if (unwrap(e) instanceof NoNodeException) {
                    return Optional.empty(); // cleaned up already
                }
                throw e instanceof CompletionException c ? c : new CompletionException(e);
            });
    }

    /** Waits for {@code future}, rethrowing its failure as it was raised. */
    static <T> T await(CompletableFuture<T> future) throws InterruptedException {
        try {
            return future.get();
        } catch (ExecutionException e) {
            Throwable cause = unwrap(e);
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new TransactionException(cause.toString(), cause);
        } catch (InterruptedException e) {
            future.cancel(false);
            throw e;
        }
    }

    static Throwable unwrap(Throwable t) {
        Throwable current = t;
        while ((current instanceof CompletionException || current instanceof ExecutionException) && current.getCause() != null) {
            current = current.getCause();
        }
        return current;
    }

    /**
     * Whether a failed write shows the transaction moved on without it (someone else decided,
     * the node was cleaned up, the vote was already there): nothing to try again; the site's
     * view of the nodes will show what happened.
     */
    static boolean settled(Throwable failure) {
        Throwable t = unwrap(failure);
        return t instanceof TransactionFailedException || t instanceof NoNodeException || t instanceof NodeExistsException
            || t instanceof BadVersionException || t instanceof NotEmptyException;
    }

    /** Whether the client is closed: nothing more can be done. */
    static boolean closed(Throwable failure) {
        return unwrap(failure) instanceof ClientClosedException;
    }
}
