package dev.baton.recipes.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.server.LocalCertificates;
import dev.baton.test.EnsembleTest;
import dev.baton.test.TestSecurity;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.api.ACLProvider;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A Curator 5.9 client and a Baton client, both over TLS and known by their certificates
 * ({@code x509:CN=recipes}), both making nodes with {@code CREATOR_ALL}, exclude each other on one
 * mutex in both orders; and a client of another identity, Curator or Baton, can delete neither's
 * lock node nor take the lock, and is told so at once. One TLS server (a child JVM) for the class.
 */
@EnsembleTest(tls = true)
class CuratorInteropOverTlsTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final String PATH = "/interop-tls/mutex";

    EmbeddedEnsemble ensemble;
    private final List<AutoCloseable> open = new ArrayList<>();
    // Curator's mutex is bound to a thread: each Curator client acquires and releases on its own
    private final ExecutorService curatorThread = Executors.newSingleThreadExecutor();

    @AfterEach
    void closeAll() throws Exception {
        curatorThread.shutdownNow();
        for (AutoCloseable c : open) {
            c.close();
        }
    }

    /** A started Curator client over TLS as {@code identity}, making every node with CREATOR_ALL. */
    private CuratorFramework curator(String identity) throws InterruptedException {
        CuratorFramework curator = CuratorFrameworkFactory.builder()
            .connectString(ensemble.connectString())
            .sessionTimeoutMs(10_000)
            .connectionTimeoutMs(10_000)
            .retryPolicy(new ExponentialBackoffRetry(100, 3))
            .zkClientConfig(TestSecurity.zkClientConfig(identity).orElseThrow())
            .aclProvider(new CreatorAll())
            .build();
        open.add(0, curator);
        curator.start();
        assertThat(curator.blockUntilConnected(20, TimeUnit.SECONDS)).as("Curator connected over TLS as %s", identity).isTrue();
        return curator;
    }

    @Test
    void curatorAndBatonOverTlsExcludeEachOtherInBothOrders(BatonClient client) throws Exception {
        CuratorFramework curator = curator(TestSecurity.IDENTITY);
        InterProcessMutex baton = new InterProcessMutex(client, PATH);
        var curatorMutex = new org.apache.curator.framework.recipes.locks.InterProcessMutex(curator, PATH);

        // Baton holds: Curator is kept out, then waits, and gets the lock when Baton releases
        LockLease held = baton.acquireLease();
        assertThat(onCurator(() -> curatorMutex.acquire(300, TimeUnit.MILLISECONDS))).as("Curator while Baton holds").isFalse();
        Future<Boolean> curatorWaits = curatorThread.submit(() -> curatorMutex.acquire(20, TimeUnit.SECONDS));
        await().atMost(WAIT).until(() -> baton.participantNodes().size() == 2);
        assertThat(curatorWaits.isDone()).as("Curator still waits while Baton holds").isFalse();
        for (String node : baton.participantNodes()) {
            assertThat(creatorOf(client, node)).as("both clients' nodes belong to the test identity only")
                .isEqualTo(LocalCertificates.x509Id(TestSecurity.IDENTITY));
        }
        held.release();
        assertThat(curatorWaits.get(20, TimeUnit.SECONDS)).as("Curator gets the lock Baton released").isTrue();

        // Curator holds: Baton is kept out until Curator releases
        assertThat(baton.acquire(Duration.ofMillis(300))).as("Baton while Curator holds").isFalse();
        onCurator(() -> {
            curatorMutex.release();
            return null;
        });
        assertThat(baton.acquire(WAIT)).as("Baton gets the lock Curator released").isTrue();
        baton.release();
    }

    @Test
    void anotherIdentityOnCuratorOrBatonCanNeitherDeleteTheHoldersNodeNorTakeTheLock(BatonClient client) throws Exception {
        CuratorFramework curator = curator(TestSecurity.IDENTITY);
        var curatorMutex = new org.apache.curator.framework.recipes.locks.InterProcessMutex(curator, PATH + "-acl");
        assertThat(onCurator(() -> curatorMutex.acquire(20, TimeUnit.SECONDS))).isTrue();
        String curatorsNode = PATH + "-acl/" + client.getChildren().forPath(PATH + "-acl").get(0);

        CuratorFramework intruder = curator("intruder");
        long start = System.nanoTime();
        assertThatThrownBy(() -> intruder.delete().forPath(curatorsNode)).isInstanceOf(KeeperException.NoAuthException.class);
        var theirMutex = new org.apache.curator.framework.recipes.locks.InterProcessMutex(intruder, PATH + "-acl");
        assertThatThrownBy(() -> theirMutex.acquire(20, TimeUnit.SECONDS)).isInstanceOf(KeeperException.NoAuthException.class);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).as("Curator refused, not waited out")
            .isLessThan(TestSecurity.REFUSED_WITHIN.multipliedBy(2));
        try (BatonClient batonIntruder = TestSecurity.client("intruder")) {
            TestSecurity.refused(() -> batonIntruder.delete().forPath(curatorsNode));
            TestSecurity.refused(() -> new InterProcessMutex(batonIntruder, PATH + "-acl").acquire(WAIT));
        }

        assertThat(client.checkExists().forPath(curatorsNode)).as("Curator's hold is intact").isNotNull();
        onCurator(() -> {
            curatorMutex.release();
            return null;
        });
    }

    private static String creatorOf(BatonClient client, String path) throws Exception {
        List<ACL> acl = client.zookeeper().getACL(path, null);
        assertThat(acl).singleElement().satisfies(entry -> assertThat(entry.getId().getScheme()).isEqualTo("x509"));
        return acl.get(0).getId().getId();
    }

    private <T> T onCurator(Callable<T> task) throws Exception {
        return curatorThread.submit(task).get(30, TimeUnit.SECONDS);
    }

    /** Curator's side of {@code AclProvider.CREATOR_ALL}: every node, all rights for its creator's ids. */
    private static final class CreatorAll implements ACLProvider {
        @Override
        public List<ACL> getDefaultAcl() {
            return ZooDefs.Ids.CREATOR_ALL_ACL;
        }

        @Override
        public List<ACL> getAclForPath(String path) {
            return ZooDefs.Ids.CREATOR_ALL_ACL;
        }
    }
}
