package dev.baton.recipes.lock;

import dev.baton.framework.BatonClient;
import dev.baton.framework.NoNodeException;
import java.util.List;

/** Reading a recipe's folders in tests: an empty container folder may be reaped by the server at any time. */
final class Nodes {
    private Nodes() {
    }

    /** The children of {@code path}, or none when the folder does not exist (never created, or reaped when empty). */
    static List<String> children(BatonClient client, String path) throws InterruptedException {
        try {
            return client.getChildren().forPath(path);
        } catch (NoNodeException e) {
            return List.of();
        }
    }
}
