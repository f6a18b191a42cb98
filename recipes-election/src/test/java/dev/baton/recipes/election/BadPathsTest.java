package dev.baton.recipes.election;

import dev.baton.framework.BatonClient;
import dev.baton.test.BadPaths;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** Every election recipe refuses a bad path at once, naming itself (not the engine beneath it). */
class BadPathsTest {
    /** Never started: a path is checked before anything is sent. */
    private static final BatonClient CLIENT = BatonClient.builder().connectString("127.0.0.1:2181").build();

    @AfterAll
    static void close() {
        CLIENT.close();
    }

    @Test
    void everyElectionRecipeRefusesABadPathNamingItself() {
        BadPaths.assertRefused("LeaderLatch", path -> new LeaderLatch(CLIENT, path, "a"));
        BadPaths.assertRefused("LeaderLatch", path -> LeaderLatch.builder(CLIENT, path, "a"));
        BadPaths.assertRefused("LeaderSelector", path -> new LeaderSelector(CLIENT, path, "a", client -> { }));
        BadPaths.assertRefused("LeaderSelector", path -> LeaderSelector.builder(CLIENT, path, "a", client -> { }));
        BadPaths.assertRefused("ElectionObserver", path -> new ElectionObserver(CLIENT, path));
    }
}
