package dev.baton.recipes.barrier;

import dev.baton.framework.BatonClient;
import dev.baton.test.BadPaths;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** Every barrier refuses a bad path (the root included) in its constructor, naming itself. */
class BadPathsTest {
    /** Never started: a path is checked before anything is sent. */
    private static final BatonClient CLIENT = BatonClient.builder().connectString("127.0.0.1:2181").build();

    @AfterAll
    static void close() {
        CLIENT.close();
    }

    @Test
    void everyBarrierRefusesABadPathNamingItself() {
        BadPaths.assertRefused("DistributedBarrier", path -> new DistributedBarrier(CLIENT, path));
        BadPaths.assertRefused("DistributedDoubleBarrier", path -> new DistributedDoubleBarrier(CLIENT, path, 2));
        BadPaths.assertRefused("DistributedCountDownLatch", path -> new DistributedCountDownLatch(CLIENT, path));
    }
}
