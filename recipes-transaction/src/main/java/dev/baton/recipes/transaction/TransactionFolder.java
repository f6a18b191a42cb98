package dev.baton.recipes.transaction;

import dev.baton.framework.BatonClient;
import dev.baton.framework.InvalidPathException;
import dev.baton.framework.NoNodeException;
import dev.baton.framework.ZPaths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * A read-only look at a transaction folder, for operators and tools ({@code baton tx}): the
 * registered participants and every transaction still there, with its votes, decision and
 * acknowledgements. Each call reads the servers afresh; it writes nothing.
 */
public final class TransactionFolder {
    private final BatonClient client;
    private final Layout layout;

    /**
     * A look at {@code folder} through {@code client}.
     *
     * @param client a started client
     * @param folder the transaction folder's path (as given to the coordinator and participants)
     * @throws dev.baton.framework.InvalidPathException if the path is not a valid absolute path
     */
    public TransactionFolder(BatonClient client, String folder) {
        this.client = Objects.requireNonNull(client, "client");
        this.layout = new Layout(folder);
    }

    /**
     * The folder's path.
     *
     * @return the path given
     */
    public String path() {
        return layout.folder;
    }

    /**
     * The participant ids registered in the folder.
     *
     * @return the ids, sorted (empty if the folder does not exist)
     * @throws InterruptedException if interrupted while reading
     */
    public SortedSet<String> participants() throws InterruptedException {
        return new TreeSet<>(children(layout.participants));
    }

    /**
     * Every transaction in the folder, oldest first. A node that does not hold a transaction is
     * skipped; one removed while being read is left out.
     *
     * @return the transactions, by sequence number
     * @throws InterruptedException if interrupted while reading
     */
    public List<TransactionStatus> transactions() throws InterruptedException {
        List<TransactionStatus> all = new ArrayList<>();
        for (String id : children(layout.transactions)) {
            try {
                transaction(id).ifPresent(all::add);
            } catch (TransactionException notATransaction) {
                // someone else's node in the folder: not ours to show
            }
        }
        all.sort(Comparator.comparingLong((TransactionStatus s) -> s.transaction().sequence()).thenComparing(TransactionStatus::id));
        return all;
    }

    /**
     * One transaction, read afresh.
     *
     * @param id the transaction's id (its node's name)
     * @return its status, or empty if it is not there
     * @throws IllegalArgumentException if {@code id} cannot name a node (empty, with a {@code /}, {@code .} or
     *     {@code ..}, or a character ZooKeeper refuses)
     * @throws InterruptedException if interrupted while reading
     */
    public Optional<TransactionStatus> transaction(String id) throws InterruptedException {
        Objects.requireNonNull(id, "id");
        String path = layout.tx(id);
        if (id.isEmpty() || id.contains("/") || !isValid(path)) {
            // '.' and '..' passed a check of '/' alone, and then failed as a read of an invalid path
            throw new IllegalArgumentException("a transaction id is a node name (not empty, without '/', not '.' or '..'); was '"
                + id + "'");
        }
        return Reads.await(Reads.status(client, path));
    }

    private static boolean isValid(String path) {
        try {
            ZPaths.validate("transaction", path);
            return true;
        } catch (InvalidPathException e) {
            return false;
        }
    }

    private List<String> children(String path) throws InterruptedException {
        try {
            return client.getChildren().forPath(path);
        } catch (NoNodeException e) {
            return List.of();
        }
    }
}
