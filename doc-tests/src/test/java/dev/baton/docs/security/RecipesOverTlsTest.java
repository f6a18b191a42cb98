package dev.baton.docs.security;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.framework.BatonClient;
import dev.baton.framework.NoAuthException;
import dev.baton.recipes.barrier.DistributedBarrier;
import dev.baton.recipes.config.ConfigStore;
import dev.baton.recipes.discovery.ServiceDiscovery;
import dev.baton.recipes.discovery.ServiceDiscoveryBuilder;
import dev.baton.recipes.discovery.ServiceInstance;
import dev.baton.recipes.election.LeaderLatch;
import dev.baton.recipes.group.GroupMember;
import dev.baton.recipes.lock.InterProcessMutex;
import dev.baton.recipes.lock.InterProcessSemaphoreV2;
import dev.baton.recipes.lock.Lease;
import dev.baton.recipes.queue.SimpleDistributedQueue;
import dev.baton.recipes.rwlock.InterProcessReadWriteLock;
import dev.baton.recipes.transaction.Outcome;
import dev.baton.recipes.transaction.Transaction;
import dev.baton.recipes.transaction.TransactionCoordinator;
import dev.baton.recipes.transaction.TransactionHandler;
import dev.baton.recipes.transaction.TransactionParticipant;
import dev.baton.recipes.transaction.Vote;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.server.LocalCertificates;
import dev.baton.server.ServerMode;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.apache.zookeeper.data.ACL;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Every recipe family over TLS, with clients known by their certificates and nodes made with
 * {@code CREATOR_ALL}: two clients of one identity ({@code CN=orders}) use each recipe as usual;
 * a client of another identity ({@code CN=intruder}) can neither delete what they hold nor read
 * what they keep, and is told so at once with {@link NoAuthException}. One TLS server (a child
 * JVM, which ZooKeeper's TLS settings need) for the whole class.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RecipesOverTlsTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    /** A refusal is an answer from the server: far quicker than this, never a wait for a timeout. */
    private static final Duration REFUSED_WITHIN = Duration.ofSeconds(5);

    private EmbeddedEnsemble ensemble;
    private BatonClient orders;
    private BatonClient orders2;
    private BatonClient intruder;

    @BeforeAll
    void startEnsembleAndClients() throws InterruptedException {
        ensemble = EmbeddedEnsemble.builder().mode(ServerMode.CHILD_PROCESSES).tls(true).requireClientCertificates(true).build();
        ensemble.start();
        orders = client("orders");
        orders2 = client("orders");
        intruder = client("intruder");
    }

    private BatonClient client(String identity) throws InterruptedException {
        LocalCertificates tls = ensemble.certificates();
        BatonClient client = SecureClients.connect(ensemble.connectString(), tls.trustStore(), tls.password(),
            tls.clientKeyStore(identity), tls.password());
        client.start();
        assertThat(client.blockUntilConnected(WAIT)).as("%s connected over TLS", identity).isTrue();
        return client;
    }

    @AfterAll
    void closeAll() {
        for (AutoCloseable c : new AutoCloseable[] {orders, orders2, intruder, ensemble}) {
            try {
                if (c != null) {
                    c.close();
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
    }

    @Test
    void mutexExcludesWithinAnIdentityAndRefusesAnother() throws Exception {
        InterProcessMutex mutex = new InterProcessMutex(orders, "/tls/locks/invoices");
        mutex.acquire();
        try {
            assertThat(new InterProcessMutex(orders2, "/tls/locks/invoices").acquire(Duration.ofMillis(200)))
                .as("a second holder while the first holds").isFalse();
            String holder = mutex.participantNodes().get(0); // a full path
            assertThat(creatorOf(holder)).isEqualTo(LocalCertificates.x509Id("orders"));
            refused(() -> intruder.delete().forPath(holder));
            refused(() -> new InterProcessMutex(intruder, "/tls/locks/invoices").acquire(WAIT));
        } finally {
            mutex.release();
        }
        InterProcessMutex next = new InterProcessMutex(orders2, "/tls/locks/invoices");
        assertThat(next.acquire(WAIT)).as("acquired once released").isTrue();
        next.release();
    }

    @Test
    void readWriteLockSharesReadsAndRefusesAnotherIdentity() throws Exception {
        InterProcessReadWriteLock rw = new InterProcessReadWriteLock(orders, "/tls/locks/catalog");
        InterProcessReadWriteLock rw2 = new InterProcessReadWriteLock(orders2, "/tls/locks/catalog");
        rw.readLock().acquire();
        try {
            assertThat(rw2.readLock().acquire(WAIT)).as("readers share").isTrue();
            rw2.readLock().release();
            assertThat(rw2.writeLock().acquire(Duration.ofMillis(200))).as("a writer while a reader holds").isFalse();
            String reader = rw.participantNodes().get(0); // a full path
            refused(() -> intruder.delete().forPath(reader));
            refused(() -> new InterProcessReadWriteLock(intruder, "/tls/locks/catalog").writeLock().acquire(WAIT));
        } finally {
            rw.readLock().release();
        }
    }

    @Test
    void leaderLatchElectsOneAndRefusesAnotherIdentity() throws Exception {
        try (LeaderLatch a = new LeaderLatch(orders, "/tls/leader", "a"); LeaderLatch b = new LeaderLatch(orders2, "/tls/leader", "b")) {
            a.start();
            assertThat(a.await(WAIT)).as("the first candidate leads").isTrue();
            b.start();
            assertThat(b.getParticipants()).hasSize(2);
            assertThat(b.hasLeadership()).isFalse();
            List<String> nodes = orders.getChildren().forPath("/tls/leader");
            for (String node : nodes) {
                refused(() -> intruder.delete().forPath("/tls/leader/" + node));
            }
            assertThat(a.hasLeadership()).as("still the leader after the intruder's attempts").isTrue();
        }
    }

    @Test
    void barrierHoldsUntilItsOwnerRemovesIt() throws Exception {
        DistributedBarrier barrier = new DistributedBarrier(orders, "/tls/barrier");
        barrier.setBarrier();
        assertThat(new DistributedBarrier(orders2, "/tls/barrier").waitOnBarrier(Duration.ofMillis(200))).isFalse();
        refused(() -> new DistributedBarrier(intruder, "/tls/barrier").removeBarrier());
        barrier.removeBarrier();
        assertThat(new DistributedBarrier(orders2, "/tls/barrier").waitOnBarrier(WAIT)).isTrue();
    }

    @Test
    void queueDeliversWithinAnIdentityAndRefusesAnother() throws Exception {
        new SimpleDistributedQueue(orders, "/tls/jobs").offer("resize 42".getBytes(UTF_8));
        refused(() -> new SimpleDistributedQueue(intruder, "/tls/jobs").poll());
        refused(() -> new SimpleDistributedQueue(intruder, "/tls/jobs").offer("forged".getBytes(UTF_8)));
        assertThat(new SimpleDistributedQueue(orders2, "/tls/jobs").poll(WAIT)).asString(UTF_8).isEqualTo("resize 42");
    }

    @Test
    void discoveryFindsInstancesOfAnIdentityAndRefusesAnother() throws Exception {
        ServiceInstance<Void> instance = ServiceInstance.<Void>builder().name("orders").address("127.0.0.1").port(8080).build();
        try (ServiceDiscovery<Void> discovery = ServiceDiscoveryBuilder.builder(Void.class).client(orders)
                 .basePath("/tls/services").thisInstance(instance).build();
             ServiceDiscovery<Void> reader = ServiceDiscoveryBuilder.builder(Void.class).client(orders2)
                 .basePath("/tls/services").build()) {
            discovery.start();
            reader.start();
            assertThat(reader.queryForInstances("orders")).extracting(ServiceInstance::port).containsExactly(8080);
            refused(() -> intruder.getChildren().forPath("/tls/services/orders"));
            refused(() -> intruder.delete().forPath("/tls/services/orders/" + instance.id()));
        }
    }

    @Test
    void configValueIsReadByItsIdentityOnly() throws Exception {
        try (ConfigStore config = ConfigStore.builder(orders, "/tls/config").build();
             ConfigStore other = ConfigStore.builder(orders2, "/tls/config").build()) {
            config.start();
            assertThat(config.awaitInitialized(WAIT)).isTrue();
            config.set("db/password", "s3cret".getBytes(UTF_8));
            other.start();
            assertThat(other.awaitInitialized(WAIT)).isTrue();
            assertThat(other.getString("db/password")).contains("s3cret");
            refused(() -> intruder.getData().forPath("/tls/config/db/password"));
            refused(() -> intruder.setData().forPath("/tls/config/db/password", "stolen".getBytes(UTF_8)));
        }
    }

    @Test
    void semaphoreLeasesAreClosedToAnotherIdentity() throws Exception {
        InterProcessSemaphoreV2 semaphore = new InterProcessSemaphoreV2(orders, "/tls/semaphores/exports", 2);
        Lease lease = semaphore.acquire(WAIT);
        try {
            assertThat(new InterProcessSemaphoreV2(orders2, "/tls/semaphores/exports", 2).participantNodes()).hasSize(1);
            // the leases live in Curator's layout, <path>/leases
            for (String node : orders.getChildren().forPath("/tls/semaphores/exports/leases")) {
                refused(() -> intruder.delete().forPath("/tls/semaphores/exports/leases/" + node));
            }
            refused(() -> new InterProcessSemaphoreV2(intruder, "/tls/semaphores/exports", 2).acquire(WAIT));
        } finally {
            semaphore.returnLease(lease);
        }
    }

    @Test
    void groupMembersAreListedForTheirIdentityOnly() throws Exception {
        try (GroupMember a = new GroupMember(orders, "/tls/group", "a", new byte[0]);
             GroupMember b = new GroupMember(orders2, "/tls/group", "b", new byte[0])) {
            a.start();
            b.start();
            assertThat(a.awaitJoined(WAIT) && b.awaitJoined(WAIT)).isTrue();
            refused(() -> intruder.getChildren().forPath("/tls/group"));
            for (String node : orders.getChildren().forPath("/tls/group")) {
                refused(() -> intruder.delete().forPath("/tls/group/" + node));
                refused(() -> intruder.getData().forPath("/tls/group/" + node));
            }
        }
    }

    @Test
    void aTransactionCannotBeStartedOrReadByAnotherIdentity() throws Exception {
        TransactionHandler commitAll = new TransactionHandler() {
            @Override
            public Vote prepare(Transaction transaction) {
                return Vote.COMMIT;
            }

            @Override
            public void commit(Transaction transaction) {
            }

            @Override
            public void abort(Transaction transaction) {
            }
        };
        try (TransactionParticipant participant = TransactionParticipant.builder(orders2, "/tls/tx", "billing", commitAll).build();
             TransactionCoordinator coordinator = TransactionCoordinator.builder(orders, "/tls/tx").build();
             TransactionCoordinator forger = TransactionCoordinator.builder(intruder, "/tls/tx").build()) {
            participant.start();
            assertThat(coordinator.start(Set.of("billing"), "move 5".getBytes(UTF_8), WAIT).await(WAIT).outcome())
                .isEqualTo(Outcome.COMMIT);
            refused(() -> forger.start(Set.of("billing"), "forged".getBytes(UTF_8), WAIT));
            refused(() -> intruder.getChildren().forPath("/tls/tx"));
        }
    }

    /** The ACL of {@code path}: its one entry's x509 id. */
    private String creatorOf(String path) throws InterruptedException {
        List<ACL> acl;
        try {
            acl = orders.zookeeper().getACL(path, null);
        } catch (org.apache.zookeeper.KeeperException e) {
            throw new AssertionError(e);
        }
        assertThat(acl).singleElement().satisfies(entry -> assertThat(entry.getId().getScheme()).isEqualTo("x509"));
        return acl.get(0).getId().getId();
    }

    /** {@code call} fails with Baton's NoAuthException, and at once rather than after a timeout. */
    private static void refused(ThrowingCallable call) {
        long start = System.nanoTime();
        assertThatThrownBy(call).isInstanceOf(NoAuthException.class);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).as("refused, not waited out").isLessThan(REFUSED_WITHIN);
    }
}
