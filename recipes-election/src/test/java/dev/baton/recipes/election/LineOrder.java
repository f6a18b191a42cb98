package dev.baton.recipes.election;

import dev.baton.framework.BatonClient;
import dev.baton.framework.TransactionBuilder;
import dev.baton.framework.contention.Contenders;
import dev.baton.test.history.LeadershipHistory;
import java.util.List;
import java.util.Set;

/** Reads an election's line the way an operator would, for tests. */
final class LineOrder {
    private LineOrder() {
    }

    /** The contenders' node names, first in line first. */
    static List<String> of(BatonClient client, String path) throws InterruptedException {
        if (client.checkExists().forPath(path) == null) {
            return List.of();
        }
        return Contenders.inOrder(client.getChildren().forPath(path), Set.of("latch-", "lock-"));
    }

    /**
     * Deletes an election folder and every node in it in one transaction (so no contender sees
     * the line half deleted), recording each node's term as revoked first. Call it when the line
     * is still (every latch in line): a transaction failure means it was not.
     */
    static void deleteFolderAtomically(BatonClient operator, String path, LeadershipHistory history) throws InterruptedException {
        TransactionBuilder deleteAll = operator.transaction();
        for (String child : operator.getChildren().forPath(path)) {
            history.revoked(czxid(operator, path + "/" + child), "operator deleted the election folder");
            deleteAll.delete(path + "/" + child);
        }
        deleteAll.delete(path).commit();
    }

    /** The czxid of the node at {@code path}, or -2 if there is none. */
    static long czxid(BatonClient client, String path) throws InterruptedException {
        var stat = client.checkExists().forPath(path);
        return stat == null ? -2 : stat.getCzxid();
    }
}
