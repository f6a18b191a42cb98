package dev.baton.recipes.rwlock;

import dev.baton.framework.BatonClient;
import dev.baton.test.BadPaths;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** The read/write lock refuses a bad path in its constructor, naming itself, the path and the form expected. */
class BadPathsTest {
    /** Never started: a path is checked before anything is sent. */
    private static final BatonClient CLIENT = BatonClient.builder().connectString("127.0.0.1:2181").build();

    @AfterAll
    static void close() {
        CLIENT.close();
    }

    @Test
    void theReadWriteLockRefusesABadPathNamingItself() {
        BadPaths.assertRefused("InterProcessReadWriteLock", path -> new InterProcessReadWriteLock(CLIENT, path));
    }
}
