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

    /**
     * Every child of the dead-letter folder is read as a dead letter: in the queue's own folder its
     * shards and receipts were listed as unreadable dead letters; in a shard the dead letters were
     * counted as waiting items; in the lock path the held locks were listed as dead letters.
     */
    @Test
    void aDeadLetterPathAmongTheQueuesOwnNodesIsRefusedNamingBothPaths() {
        QueueBuilder<String> builder = QueueBuilder.builder(CLIENT, null, Strings.UTF8, "/jobs");
        assertThatThrownBy(() -> builder.deadLetterPath("/jobs")).isInstanceOf(InvalidPathException.class)
            .hasMessageStartingWith("DistributedQueue deadLetterPath '/jobs': invalid path: the dead-letter folder cannot be"
                + " the queue path /jobs itself");
        assertThatThrownBy(() -> builder.deadLetterPath("/")).isInstanceOf(InvalidPathException.class);
        assertThatThrownBy(() -> QueueBuilder.builder(CLIENT, null, Strings.UTF8, "/app/jobs").deadLetterPath("/app"))
            .isInstanceOf(InvalidPathException.class).hasMessageContaining("'/app'").hasMessageContaining("cannot hold the queue path /app/jobs");
        for (String own : new String[] {"/jobs/receipts", "/jobs/receipts/dead", "/jobs/shard-0000000003", "/jobs/queue-0000000012"}) {
            assertThatThrownBy(() -> builder.deadLetterPath(own)).as(own).isInstanceOf(InvalidPathException.class)
                .hasMessageContaining("'" + own + "'").hasMessageContaining("the queue path /jobs's own nodes");
        }
        // a folder of its own inside the queue is fine: the default is one
        builder.deadLetterPath("/jobs/dead-letters").deadLetterPath("/jobs/failed/2026").deadLetterPath("/jobs-dead");
    }

    @Test
    void aDeadLetterPathThatIsOrHoldsOrLiesInTheLockPathIsRefusedWhicheverIsSetFirst() {
        assertThatThrownBy(() -> QueueBuilder.builder(CLIENT, null, Strings.UTF8, "/jobs").lockPath("/jobs-locks")
            .deadLetterPath("/jobs-locks"))
            .isInstanceOf(InvalidPathException.class)
            .hasMessage("DistributedQueue deadLetterPath '/jobs-locks': invalid path: the dead-letter folder must be apart from"
                + " the lock path /jobs-locks (not the same, neither inside the other): held locks would be listed as dead letters");
        assertThatThrownBy(() -> QueueBuilder.builder(CLIENT, null, Strings.UTF8, "/jobs").lockPath("/jobs-locks")
            .deadLetterPath("/jobs-locks/dead")).isInstanceOf(InvalidPathException.class).hasMessageContaining("/jobs-locks");
        assertThatThrownBy(() -> QueueBuilder.builder(CLIENT, null, Strings.UTF8, "/jobs").deadLetterPath("/jobs-dead")
            .lockPath("/jobs-dead/locks"))
            .isInstanceOf(InvalidPathException.class)
            .hasMessageContaining("'/jobs-dead/locks'").hasMessageContaining("dead-letter path /jobs-dead");
        QueueBuilder.builder(CLIENT, null, Strings.UTF8, "/jobs").deadLetterPath("/jobs-dead").lockPath("/jobs-locks");
    }
}
