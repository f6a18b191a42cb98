package dev.baton.recipes.lock;

import dev.baton.framework.BatonClient;
import dev.baton.test.BadPaths;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** Every lock refuses a bad path in its constructor, naming itself, the path and the form expected. */
class BadPathsTest {
    /** Never started: a path is checked before anything is sent. */
    private static final BatonClient CLIENT = BatonClient.builder().connectString("127.0.0.1:2181").build();

    @AfterAll
    static void close() {
        CLIENT.close();
    }

    @Test
    void everyLockRefusesABadPathNamingItself() {
        BadPaths.assertRefused("InterProcessMutex", path -> new InterProcessMutex(CLIENT, path));
        BadPaths.assertRefused("InterProcessSemaphoreMutex", path -> new InterProcessSemaphoreMutex(CLIENT, path));
        BadPaths.assertRefused("InterProcessSemaphoreV2", path -> new InterProcessSemaphoreV2(CLIENT, path, 2));
        BadPaths.assertRefused("InterProcessMultiLock", path -> new InterProcessMultiLock(CLIENT, java.util.Arrays.asList("/locks/a", path)));
        BadPaths.assertRefused("WriteLock", path -> new WriteLock(CLIENT, path));
    }

    @Test
    void aMultiLockNamesItselfForEachOfItsPaths() {
        BadPaths.assertRefused("InterProcessMultiLock", path -> new InterProcessMultiLock(CLIENT, java.util.Arrays.asList(path, "/locks/b")));
        new InterProcessMultiLock(CLIENT, List.of("/locks/a", "/locks/b")); // and good paths pass
    }
}
