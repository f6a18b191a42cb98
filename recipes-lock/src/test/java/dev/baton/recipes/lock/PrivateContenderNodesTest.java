package dev.baton.recipes.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.AclProvider;
import dev.baton.framework.BatonClient;
import dev.baton.framework.BatonObserver;
import dev.baton.framework.NoAuthException;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.CountingClient;
import dev.baton.test.EnsembleTest;
import dev.baton.test.PrivateNodes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.Watcher.Event.EventType;
import org.apache.zookeeper.ZooDefs;
import org.junit.jupiter.api.Test;

/**
 * Two identities share a lock whose folder lets anyone create, list and delete in it while each
 * contender's node is its creator's alone: nobody may read another's node. The waiter can set
 * neither the usual getData watch on the node before its own nor an exists watch (ZooKeeper
 * refuses both: NoAuth); it watches the folder's children, and takes the lock when its turn
 * comes. Before that fallback the waiter failed with {@code NoAuthException: getData <node>}.
 */
@EnsembleTest
class PrivateContenderNodesTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    /**
     * Contenders' nodes to their creator only, folders open. The provider is asked with the path a
     * recipe creates, before the protection and the sequence number: {@code <folder>/lock-}.
     */
    private static final AclProvider PRIVATE_NODES = PrivateNodes.provider(path -> !path.endsWith("-"));

    EmbeddedEnsemble ensemble;

    private BatonClient client(String user) {
        return PrivateNodes.client(ensemble, user, PRIVATE_NODES);
    }

    @Test
    void aSecondIdentityWaitsForTheMutexAndTakesItWhenTheFirstReleases() throws Exception {
        String path = "/private/mutex";
        try (BatonClient alice = client("alice"); BatonClient bob = client("bob")) {
            InterProcessMutex alices = new InterProcessMutex(alice, path);
            InterProcessMutex bobs = new InterProcessMutex(bob, path);
            LockLease first = alices.acquireLease();
            String alicesNode = alices.participantNodes().get(0);
            assertThatThrownBy(() -> bob.getData().forPath(alicesNode)).as("bob may not read alice's node")
                .isInstanceOf(NoAuthException.class);

            assertThat(bobs.acquireLease(Duration.ofMillis(300))).as("bob waits his turn, until his timeout").isNull();
            CompletableFuture<LockLease> second = bobs.acquireAsync();
            await().atMost(WAIT).until(() -> bobs.participantNodes().size() == 2);
            assertThat(second).isNotDone();

            first.release();
            LockLease taken = second.get(WAIT.toSeconds(), TimeUnit.SECONDS);
            assertThat(taken.isValid()).isTrue();
            assertThat(taken.fencingToken()).isGreaterThan(first.fencingToken());
            assertThat(alices.acquireLease(Duration.ofMillis(300))).as("now alice waits for bob").isNull();
            taken.release();
            assertThat(alices.acquireLease(WAIT)).as("and takes it after him").isNotNull().satisfies(LockLease::release);
            await().atMost(WAIT).until(() -> alices.participantNodes().isEmpty());
        }
    }

    /**
     * The semaphore's waiter for a lease keeps its internal mutex while it waits (Curator's
     * algorithm): another acquisition waits behind that mutex's node, of another identity.
     */
    @Test
    void semaphoreAcquisitionsOfTwoIdentitiesWaitBehindEachOthersNodesAndEachGetsALease() throws Exception {
        String path = "/private/semaphore";
        try (BatonClient alice = client("alice"); BatonClient bob = client("bob")) {
            InterProcessSemaphoreV2 alices = new InterProcessSemaphoreV2(alice, path, 1);
            InterProcessSemaphoreV2 bobs = new InterProcessSemaphoreV2(bob, path, 1);
            Lease first = alices.acquire();
            String alicesLease = alice.getChildren().forPath(path + "/leases").get(0);
            assertThatThrownBy(() -> bob.getData().forPath(path + "/leases/" + alicesLease)).as("bob may not read alice's lease")
                .isInstanceOf(NoAuthException.class);
            CompletableFuture<Lease> bobsTurn = bobs.acquireAsync();
            await().atMost(WAIT).until(() -> alice.getChildren().forPath(path + "/locks").size() == 1);
            // alice's second acquisition waits behind bob's node in the semaphore's internal mutex
            CompletableFuture<Lease> alicesNext = alices.acquireAsync();
            await().atMost(WAIT).until(() -> alicesNext.isDone() || alice.getChildren().forPath(path + "/locks").size() == 2);
            assertThat(alicesNext).as("alice waits behind bob's node").isNotDone();
            assertThat(bobsTurn).isNotDone();

            first.close();
            Lease bobsLease = bobsTurn.get(WAIT.toSeconds(), TimeUnit.SECONDS);
            assertThat(bobsLease.isValid()).isTrue();
            assertThat(alicesNext).as("one lease, bob's").isNotDone();
            bobsLease.close();
            Lease second = alicesNext.get(WAIT.toSeconds(), TimeUnit.SECONDS);
            assertThat(second.isValid()).isTrue();
            second.close();
        }
    }

    /** Counts the getData requests of the clients it observes that failed (refused, or no node). */
    private static final class FailedReads implements BatonObserver {
        final AtomicInteger count = new AtomicInteger();

        @Override
        public void requestCompleted(String operation, long nanos, boolean succeeded) {
            if (!succeeded && operation.equals("getData")) {
                count.incrementAndGet();
            }
        }
    }

    /**
     * A waiter is refused the read of its predecessor's node once, not at every wake: it remembers
     * the refusal for the rest of its acquisition and goes straight to the folder's child watch
     * when the line changes again. The mutex's only getData is that watch, so every failed getData
     * is one: refused (NoAuth), or sent just after the predecessor went (no node), and either
     * happens once per waiter and predecessor. Before, every change of the line (a contender
     * joining or leaving) cost every waiter a refused getData again.
     */
    @Test
    void aWaiterIsRefusedItsPredecessorsNodeOncePerPredecessorWhileTheLineMoves() throws Exception {
        String path = "/private/line";
        List<String> users = List.of("alice", "bob", "carol", "dave");
        FailedReads failed = new FailedReads();
        List<BatonClient> clients = new ArrayList<>();
        try {
            List<InterProcessMutex> mutexes = new ArrayList<>();
            for (String user : users) {
                BatonClient client = client(user);
                clients.add(client);
                client.addObserver(failed);
                mutexes.add(new InterProcessMutex(client, path));
            }
            LockLease held = mutexes.get(0).acquireLease();
            List<CompletableFuture<LockLease>> waiters = new ArrayList<>();
            for (int i = 1; i < users.size(); i++) {
                waiters.add(mutexes.get(i).acquireAsync());
                int joined = i;
                // the new waiter's first watch of its predecessor is refused: then the next one joins
                await().atMost(WAIT).until(() -> failed.count.get() >= joined);
            }

            for (int i = 1; i < users.size(); i++) {
                held.release();
                LockLease next = waiters.get(i - 1).get(WAIT.toSeconds(), TimeUnit.SECONDS);
                assertThat(next.isValid()).as("%s holds after the one before", users.get(i)).isTrue();
                assertThat(next.fencingToken()).isGreaterThan(held.fencingToken());
                held = next;
            }
            held.release();
            await().atMost(WAIT).until(() -> mutexes.get(0).participantNodes().isEmpty());

            int pairs = users.size() - 1; // bob behind alice, carol behind bob, dave behind carol
            assertThat(failed.count.get())
                .as("getData requests of the waiters that failed (NoAuth, or the predecessor just gone), for %d waiters"
                    + " each behind one predecessor while 3 joined and 4 released", pairs)
                .isLessThanOrEqualTo(pairs);
        } finally {
            for (BatonClient client : clients) {
                client.close();
            }
        }
    }

    /**
     * A waiter that watches the folder (it may not read its predecessor's node) lists the folder
     * once per wake: the listing that sets the folder's watch again is the one it decides on.
     * Before, each wake cost two listings, a look and then the watch, for every such waiter at
     * every change of the line.
     */
    @Test
    void aWaiterWatchingTheFolderListsItOncePerWake() throws Exception {
        String path = "/private/wakes";
        try (BatonClient alice = client("alice"); BatonClient bob = client("bob")) {
            CountingClient counting = CountingClient.wrap(bob);
            InterProcessMutex alices = new InterProcessMutex(alice, path);
            InterProcessMutex bobs = new InterProcessMutex(counting.client(), path);
            LockLease first = alices.acquireLease();
            CompletableFuture<LockLease> waiting = bobs.acquireAsync();
            // the listing sent with bob's create, then the folder's watch once alice's node was refused him
            await().atMost(WAIT).until(() -> counting.reads(CountingClient.Read.GET_CHILDREN) == 2);
            long before = counting.reads(CountingClient.Read.GET_CHILDREN);

            InterProcessMutex others = new InterProcessMutex(alice, path);
            for (int i = 0; i < 5; i++) {
                // a try-lock joins the line behind bob and leaves it: two changes of the line
                assertThat(others.acquireLease(Duration.ZERO)).as("a try-lock behind alice's hold").isNull();
            }
            counting.quiesce(WAIT);
            await().atMost(WAIT).untilAsserted(() -> {
                long wakes = counting.events(EventType.NodeChildrenChanged);
                assertThat(wakes).as("changes of the line that woke bob").isPositive();
                assertThat(counting.reads(CountingClient.Read.GET_CHILDREN) - before)
                    .as("listings of the folder bob sent for %d wakes", wakes).isEqualTo(wakes);
            });
            assertThat(waiting).as("bob waits for alice").isNotDone();

            first.release();
            LockLease taken = waiting.get(WAIT.toSeconds(), TimeUnit.SECONDS);
            assertThat(taken.isValid()).as("bob holds once alice released").isTrue();
            taken.release();
        }
    }

    /**
     * A waiter that takes a new ticket forgets which nodes it was refused: a folder deleted and made
     * again numbers its nodes from 0 again, so a name of ZooKeeper's own recipe
     * ({@code x-<sessionId>-<seq>}) can come back on a node anyone may read. Bob waits behind
     * alice's private node; in one transaction both nodes and the folder go, and the folder comes
     * back with alice's node of the same name, now readable; bob's node gone, he queues again behind
     * it. He then watches that node itself (one wake at its release) instead of the whole folder
     * (a wake at every change of the line), as he did when he remembered the old node's refusal.
     */
    @Test
    void aNewTicketForgetsTheNodesItsAttemptWasRefusedToRead() throws Exception {
        String path = "/private/renumbered";
        try (BatonClient alice = client("alice"); BatonClient bob = client("bob")) {
            alice.create().creatingParentsIfNeeded().forPath(path); // an open folder (PRIVATE_NODES)
            String prefix = path + "/x-" + alice.sessionId() + "-";
            String alicesNode = alice.zookeeper().create(prefix, new byte[0], ZooDefs.Ids.CREATOR_ALL_ACL,
                CreateMode.EPHEMERAL_SEQUENTIAL);
            List<Boolean> bobsReads = new CopyOnWriteArrayList<>();
            bob.addObserver(new BatonObserver() {
                @Override
                public void requestCompleted(String operation, long nanos, boolean succeeded) {
                    if (operation.equals("getData")) {
                        bobsReads.add(succeeded);
                    }
                }
            });
            WriteLock bobs = new WriteLock(bob, path);
            assertThat(bobs.lock()).as("bob waits behind alice's node").isFalse();
            // the watch of alice's node refused him (his own node's watch is an exists)
            await().atMost(WAIT).untilAsserted(() -> assertThat(bobsReads).as("bob's getData requests (succeeded?)")
                .containsExactly(false));

            List<OpResult> done = alice.zookeeper().multi(List.of(Op.delete(alicesNode, -1),
                Op.delete(bobs.getId(), -1), Op.delete(path, -1),
                Op.create(path, new byte[0], PrivateNodes.OPEN_FOLDER, CreateMode.PERSISTENT),
                Op.create(prefix, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL_SEQUENTIAL)));
            String readable = ((OpResult.CreateResult) done.get(4)).getPath();
            assertThat(readable).as("the folder made again numbers from 0: alice's new node has the old one's name")
                .isEqualTo(alicesNode);

            // alice's new node read: a watch on it
            await().atMost(WAIT).untilAsserted(() -> assertThat(bobsReads)
                .as("bob's getData requests (succeeded?) after he queued again behind alice's readable node")
                .containsExactly(false, true));
            assertThat(bobs.isOwner()).isFalse();

            alice.zookeeper().delete(readable, -1);
            await().atMost(WAIT).until(bobs::isOwner);
            bobs.unlock();
        }
    }
}
