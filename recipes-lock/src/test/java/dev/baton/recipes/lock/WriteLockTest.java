package dev.baton.recipes.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ErrorPolicy;
import dev.baton.framework.InvalidPathException;
import dev.baton.framework.retry.RetryNTimes;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.ChaosProxy;
import dev.baton.test.EnsembleTest;
import dev.baton.test.SessionKiller;
import dev.baton.test.TestClients;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;

@EnsembleTest
class WriteLockTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    EmbeddedEnsemble ensemble;

    /** Records what a listener hears. */
    static final class Heard implements LockListener {
        final List<String> calls = new CopyOnWriteArrayList<>();

        @Override
        public void lockAcquired() {
            calls.add("acquired");
        }

        @Override
        public void lockReleased() {
            calls.add("released");
        }
    }

    @Test
    void aFreeLockIsHeldAtOnceUnderTheZooKeeperRecipesName(BatonClient client) throws Exception {
        Heard heard = new Heard();
        WriteLock lock = new WriteLock(client, "/writelock/free", heard);

        assertThat(lock.lock()).isTrue();

        assertThat(lock.isOwner()).isTrue();
        assertThat(lock.getId()).matches("/writelock/free/x-" + client.sessionId() + "-\\d{10}");
        assertThat(Nodes.children(client, "/writelock/free")).containsExactly(lock.getId().substring("/writelock/free/".length()));
        assertThat(client.getData().forPath(lock.getId())).as("the node's data, as every reader sees it").isEmpty();
        assertThat(lock.lock()).as("asking again while owner").isTrue();
        await().atMost(WAIT).until(() -> heard.calls.equals(List.of("acquired")));
        long token = lock.fencingToken();
        assertThat(token).isEqualTo(client.checkExists().forPath(lock.getId()).getCzxid());

        lock.unlock();

        assertThat(lock.isOwner()).isFalse();
        assertThat(lock.getId()).isNull();
        assertThat(Nodes.children(client, "/writelock/free")).isEmpty();
        await().atMost(WAIT).until(() -> heard.calls.equals(List.of("acquired", "released")));
        assertThatThrownBy(lock::fencingToken).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aWaiterReturnsFalseAndHearsLockAcquiredWhenThePredecessorUnlocks(BatonClient a, BatonClient b) throws Exception {
        WriteLock first = new WriteLock(a, "/writelock/wait");
        Heard heard = new Heard();
        WriteLock second = new WriteLock(b, "/writelock/wait", heard);
        assertThat(first.lock()).isTrue();
        long firstToken = first.fencingToken();

        assertThat(second.lock()).isFalse();
        assertThat(second.lock()).as("asking again while waiting").isFalse();
        assertThat(second.isOwner()).isFalse();
        assertThat(second.getId()).startsWith("/writelock/wait/x-" + b.sessionId() + "-");
        assertThat(heard.calls).isEmpty();

        first.unlock();

        await().atMost(WAIT).until(() -> heard.calls.equals(List.of("acquired")) && second.isOwner());
        assertThat(second.fencingToken()).isGreaterThan(firstToken);
        second.close();
    }

    @Test
    void unlockWhileWaitingGivesUpThePlaceInLine(BatonClient a, BatonClient b) throws Exception {
        WriteLock first = new WriteLock(a, "/writelock/give-up");
        Heard heard = new Heard();
        WriteLock second = new WriteLock(b, "/writelock/give-up", heard);
        first.lock();
        second.lock();
        await().atMost(WAIT).until(() -> Nodes.children(a, "/writelock/give-up").size() == 2);

        second.unlock();

        await().atMost(WAIT).until(() -> Nodes.children(a, "/writelock/give-up").size() == 1);
        first.unlock();
        assertThat(heard.calls).as("it never held, so it is never told of a release").isEmpty();
        assertThat(second.getId()).isNull();
    }

    @Test
    void aNodeMadeByZooKeepersOwnRecipeIsInTheSameLine(BatonClient client) throws Exception {
        client.create().creatingParentsIfNeeded().forPath("/writelock/mixed");
        ZooKeeper raw = client.zookeeper();
        // what org.apache.zookeeper.recipes.lock.WriteLock creates: x-<sessionId>-<seq>, ephemeral sequential, with
        // its data {0x12, 0x34} and none of Baton's create mark
        String theirs = raw.create("/writelock/mixed/x-" + raw.getSessionId() + "-", new byte[] {0x12, 0x34},
            ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL_SEQUENTIAL);
        try (BatonClient other = TestClients.started(ensemble.connectString(), Duration.ofSeconds(10))) {
            WriteLock lock = new WriteLock(other, "/writelock/mixed");

            assertThat(lock.lock()).as("the other recipe's node is ahead").isFalse();
            raw.delete(theirs, -1);

            await().atMost(WAIT).until(lock::isOwner);
            lock.unlock();
        }
    }

    @Test
    void aLostHoldIsReportedAsReleased(BatonClient other) throws Exception {
        try (BatonClient victim = TestClients.started(ensemble.connectString(), Duration.ofSeconds(3))) {
            Heard heard = new Heard();
            WriteLock lock = new WriteLock(victim, "/writelock/lost", heard);
            assertThat(lock.lock()).isTrue();

            SessionKiller.expire(victim, ensemble.connectString(), WAIT);

            await().atMost(WAIT).until(() -> heard.calls.equals(List.of("acquired", "released")));
            assertThat(lock.isOwner()).isFalse();
            WriteLock next = new WriteLock(other, "/writelock/lost");
            await().atMost(WAIT).until(next::lock);
            lock.unlock(); // cleans up, says nothing more
            assertThat(heard.calls).hasSize(2);
            next.unlock();
            await().atMost(WAIT).until(() -> victim.connectionState().isConnected());
            assertThat(lock.lock()).as("it can ask again").isTrue();
            lock.unlock();
        }
    }

    @Test
    void badInputFailsAtOnce(BatonClient client) {
        assertThatThrownBy(() -> new WriteLock(client, "nope", null)).isInstanceOf(InvalidPathException.class);
        assertThatThrownBy(() -> new WriteLock(null, "/writelock/x")).isInstanceOf(NullPointerException.class);
        new WriteLock(client, "/writelock/never-locked").unlock(); // unlocking a lock never asked for does nothing
    }

    /**
     * Two WriteLocks of one client in one folder share the {@code x-<sessionId>-} prefix. After a
     * lost create reply each must find its own node: never two owners of one node, never a node
     * nobody owns.
     */
    @Test
    void twoWriteLocksOfOneClientWithLostCreateRepliesHaveOneOwnerAndNoOrphan(BatonClient direct) throws Exception {
        String dir = "/writelock/twins";
        direct.create().creatingParentsIfNeeded().forPath(dir); // a create that needs the folder first waits for a reply
        try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1));
             BatonClient client = proxied(proxy)) {
            WriteLock a = new WriteLock(client, dir);
            WriteLock b = new WriteLock(client, dir);

            // both creates applied, both replies lost
            proxy.pauseReplies();
            CompletableFuture<Boolean> lockA = lockInBackground(a);
            CompletableFuture<Boolean> lockB = lockInBackground(b);
            await().atMost(WAIT).until(() -> Nodes.children(direct, dir).size() == 2);
            proxy.cut();
            proxy.heal();
            boolean heldA = lockA.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            boolean heldB = lockB.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            assertThat(List.of(heldA, heldB)).as("what lock() returned to A and B").containsExactlyInAnyOrder(true, false);
            assertOneOwnerAndNoOrphan(direct, dir, a, b);
            WriteLock first = a.isOwner() ? a : b;
            WriteLock second = first == a ? b : a;
            first.unlock();
            await().atMost(WAIT).until(second::isOwner);
            second.unlock();
            await().atMost(WAIT).until(() -> Nodes.children(direct, dir).isEmpty());

            // A holds; B's create reply is lost
            assertThat(a.lock()).isTrue();
            proxy.pauseReplies();
            CompletableFuture<Boolean> waiting = lockInBackground(b);
            await().atMost(WAIT).until(() -> Nodes.children(direct, dir).size() == 2);
            proxy.cut();
            proxy.heal();
            assertThat(waiting.get(WAIT.toMillis(), TimeUnit.MILLISECONDS)).as("B waits behind A").isFalse();
            assertThat(a.isOwner()).as("A still holds").isTrue();
            assertOneOwnerAndNoOrphan(direct, dir, a, b);
            a.unlock();
            await().atMost(WAIT).until(b::isOwner);
            b.unlock();
            await().atMost(WAIT).until(() -> Nodes.children(direct, dir).isEmpty());
        }
    }

    /** Giving up a place whose create is still in flight deletes that create's node and no other of the session's. */
    @Test
    void unlockWhileTheCreateIsInFlightLeavesTheHoldersNode(BatonClient direct) throws Exception {
        String dir = "/writelock/in-flight";
        try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1));
             BatonClient client = proxied(proxy)) {
            WriteLock holder = new WriteLock(client, dir);
            assertThat(holder.lock()).isTrue();
            String held = holder.getId().substring(dir.length() + 1);
            WriteLock late = new WriteLock(client, dir);

            proxy.pauseReplies();
            CompletableFuture<Boolean> asked = lockInBackground(late);
            await().atMost(WAIT).until(() -> Nodes.children(direct, dir).size() == 2); // applied; the reply is held
            late.unlock();
            proxy.resume();

            assertThat(asked.get(WAIT.toMillis(), TimeUnit.MILLISECONDS))
                .as("lock() answers that the place it asked for, given up meanwhile, does not hold").isFalse();
            assertThat(late.isOwner()).isFalse();
            await().atMost(WAIT).until(() -> Nodes.children(direct, dir).size() < 2);
            assertThat(Nodes.children(direct, dir)).as("the holder keeps its node").containsExactly(held);
            assertThat(holder.isOwner()).isTrue();
            holder.unlock();
        }
    }

    /** A client behind {@code proxy} whose holds outlive a cut connection while the session lives. */
    private static BatonClient proxied(ChaosProxy proxy) {
        return TestClients.started(BatonClient.builder().connectString(proxy.connectString())
            .sessionTimeout(Duration.ofSeconds(20)).connectionTimeout(Duration.ofSeconds(5))
            .retryPolicy(new RetryNTimes(10, Duration.ofMillis(10))).errorPolicy(ErrorPolicy.SESSION_ONLY));
    }

    /** lock() on another thread (it waits for the first look at the line). */
    private static CompletableFuture<Boolean> lockInBackground(WriteLock lock) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return lock.lock();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new CompletionException(e);
            }
        });
    }

    private static void assertOneOwnerAndNoOrphan(BatonClient direct, String dir, WriteLock a, WriteLock b)
        throws InterruptedException {
        assertThat(Stream.of(a, b).filter(WriteLock::isOwner)).as("owners").hasSize(1);
        assertThat(a.getId()).as("each lock has its own node").isNotNull().isNotEqualTo(b.getId());
        assertThat(Nodes.children(direct, dir)).as("every node in the folder belongs to one of the locks")
            .containsExactlyInAnyOrder(a.getId().substring(dir.length() + 1), b.getId().substring(dir.length() + 1));
    }
}
