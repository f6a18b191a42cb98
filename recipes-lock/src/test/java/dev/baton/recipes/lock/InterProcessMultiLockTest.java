package dev.baton.recipes.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.test.EnsembleTest;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

@EnsembleTest
class InterProcessMultiLockTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    @Test
    void whenOneLockIsTakenItReleasesWhatItTookAndLeavesNoNode(BatonClient a, BatonClient b) throws Exception {
        InterProcessMutex blockerOfB = new InterProcessMutex(b, "/multi/partial/b");
        LockLease blocking = blockerOfB.acquireLease();
        InterProcessMultiLock both = new InterProcessMultiLock(a, List.of("/multi/partial/a", "/multi/partial/b"));
        InterProcessMutex lookAtA = new InterProcessMutex(b, "/multi/partial/a");

        assertThat(both.acquire(Duration.ofMillis(400))).isFalse();

        assertThat(both.isAcquiredInThisProcess()).isFalse();
        await().atMost(WAIT).until(() -> lookAtA.participantNodes().isEmpty()
            && blockerOfB.participantNodes().equals(blocking.nodePaths()));
        assertThat(lookAtA.acquire(Duration.ZERO)).as("the first lock was given back").isTrue();
        lookAtA.release();
        blocking.release();
    }

    /** The budget's arithmetic is unit-tested in AllOrNothingTest, on a fake clock. */
    @Test
    void runningOutOfTimeOnTheSecondLockGivesTheFirstBack(BatonClient a, BatonClient b) throws Exception {
        LockLease first = new InterProcessMutex(b, "/multi/budget/a").acquireLease();
        LockLease second = new InterProcessMutex(b, "/multi/budget/b").acquireLease();
        InterProcessMultiLock both = new InterProcessMultiLock(a, List.of("/multi/budget/a", "/multi/budget/b"));
        InterProcessMutex lookAtA = new InterProcessMutex(b, "/multi/budget/a");
        InterProcessMutex lookAtB = new InterProcessMutex(b, "/multi/budget/b");
        CompletableFuture<LockLease> attempt = both.acquireAsync(Duration.ofSeconds(2));
        await().atMost(WAIT).until(() -> lookAtA.participantNodes().size() == 2);

        first.release(); // the multi-lock takes the first lock and waits for the second, which never comes

        await().atMost(WAIT).until(() -> lookAtB.participantNodes().size() == 2);
        assertThat(attempt.get(20, TimeUnit.SECONDS)).isNull();
        await().atMost(WAIT).until(() -> lookAtA.participantNodes().isEmpty()
            && lookAtB.participantNodes().equals(second.nodePaths()));
        second.release();
    }

    @Test
    void holdsAllReentrantlyWithTheLargestTokenAndGuardsEveryNode(BatonClient a) throws Exception {
        InterProcessMutex partA = new InterProcessMutex(a, "/multi/all/a");
        InterProcessMutex partB = new InterProcessMutex(a, "/multi/all/b");
        InterProcessMultiLock both = new InterProcessMultiLock(List.of(partA, partB));

        LockLease lease = both.acquireLease();
        assertThat(lease.nodePaths()).hasSize(2);
        long tokenA = a.checkExists().forPath(lease.nodePaths().get(0)).getCzxid();
        long tokenB = a.checkExists().forPath(lease.nodePaths().get(1)).getCzxid();
        assertThat(lease.fencingToken()).isEqualTo(Math.max(tokenA, tokenB)).isEqualTo(tokenB);
        assertThat(lease.guard(a.transaction()).size()).as("one check per part").isEqualTo(2);
        lease.guard(a.transaction()).create("/multi-guarded", new byte[0]).commit();
        lease.release();

        both.acquire();
        assertThat(both.acquire(WAIT)).as("re-entrant").isTrue();
        both.release();
        both.release();
        assertThat(both.isAcquiredInThisProcess()).isFalse();
    }

    @Test
    void badInputFailsAtOnce(BatonClient a) {
        assertThatThrownBy(() -> new InterProcessMultiLock(a, List.of())).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("at least one lock");
        assertThatThrownBy(() -> new InterProcessMultiLock(a, List.of("/multi/x", "/multi/x")))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("distinct");
        InterProcessMutex same = new InterProcessMutex(a, "/multi/y");
        assertThatThrownBy(() -> new InterProcessMultiLock(List.of(same, same))).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("appears twice");
    }
}
