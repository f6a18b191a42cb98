package dev.baton.recipes.queue;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.framework.BatonClient;
import dev.baton.framework.InvalidPathException;
import dev.baton.test.BadPaths;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** Every queue path a user gives is refused at once when bad, with the recipe and the setting named. */
class BadPathsTest {
    /** Never started: a path is checked before anything is sent. */
    private static final BatonClient CLIENT = BatonClient.builder().connectString("127.0.0.1:2181").build();

    @AfterAll
    static void close() {
        CLIENT.close();
    }

    @Test
    void everyQueuePathIsCheckedNamingTheRecipe() {
        BadPaths.assertRefused("SimpleDistributedQueue", path -> new SimpleDistributedQueue(CLIENT, path));
        BadPaths.assertRefused("DistributedQueue", path -> QueueBuilder.builder(CLIENT, null, Strings.UTF8, path));
        BadPaths.assertRefused("DistributedQueue lockPath",
            path -> QueueBuilder.builder(CLIENT, null, Strings.UTF8, "/jobs").lockPath(path));
        BadPaths.assertRefused("DistributedQueue deadLetterPath",
            path -> QueueBuilder.builder(CLIENT, null, Strings.UTF8, "/jobs").deadLetterPath(path));
    }

    @Test
    void aLockPathInsideTheQueueIsRefused() {
        assertThatThrownBy(() -> QueueBuilder.builder(CLIENT, null, Strings.UTF8, "/jobs").lockPath("/jobs/locks"))
            .isInstanceOf(InvalidPathException.class)
            .hasMessage("DistributedQueue lockPath '/jobs/locks': invalid path: the lock folder must be outside the queue path"
                + " /jobs (expected a folder such as /jobs-locks)");
    }
}
