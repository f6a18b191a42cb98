package dev.baton.recipes.election;

import dev.baton.framework.BatonClient;
import dev.baton.framework.contention.Contenders;
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

    /** The czxid of the node at {@code path}, or -2 if there is none. */
    static long czxid(BatonClient client, String path) throws InterruptedException {
        var stat = client.checkExists().forPath(path);
        return stat == null ? -2 : stat.getCzxid();
    }
}
