package dev.baton.framework.contention;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.framework.BatonClient;
import dev.baton.test.EnsembleTest;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.junit.jupiter.api.Test;

/**
 * The engine watches the node the rule names; when that node is already gone by the time the
 * watch is set, no watch may stay behind. An exists-watch on a missing node stays registered (on
 * the client and on the server) until that path is created — for a sequential name, never — so
 * every hand-off that raced its predecessor's delete would leak one watch for the session's life.
 */
@EnsembleTest
class PredecessorWatchTest {
    private static final String GONE = "_c_gone-lock-0000000000";

    @Test
    void predecessorAlreadyGoneLeavesNoWatchBehind(BatonClient client) throws Exception {
        String dir = "/engine-predecessor-gone";
        // the first look names a predecessor that is not there (deleted between the listing and
        // the watch, as in a race with its release); the second look holds
        AtomicInteger looks = new AtomicInteger();
        ContentionRule firstLookWaitsForAGhost = (ordered, mine) ->
            looks.getAndIncrement() == 0 ? Decision.waitFor(GONE, false) : Decision.hold();

        Ticket ticket = Contention.of(client, dir, "lock-", firstLookWaitsForAGhost)
            .acquire(new byte[0], Duration.ofSeconds(20)).get(20, TimeUnit.SECONDS);

        assertThat(ticket).as("the attempt holds once the named predecessor turns out to be gone").isNotNull();
        assertThat(looks.get()).as("the rule was asked again after the predecessor was found gone").isEqualTo(2);
        String ghost = dir + "/" + GONE;
        assertThatThrownBy(() -> client.zookeeper().removeAllWatches(ghost, Watcher.WatcherType.Any, true))
            .as("no watch is left registered on the predecessor that was already gone")
            .isInstanceOf(KeeperException.NoWatcherException.class);
    }
}
