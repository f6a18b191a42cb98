package dev.baton.recipes.rwlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.AclProvider;
import dev.baton.framework.BatonClient;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.EnsembleTest;
import dev.baton.test.PrivateNodes;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.data.ACL;
import org.junit.jupiter.api.Test;

/**
 * Two identities share a read/write lock whose folder lets anyone create, list and delete in it
 * while each contender's node is its creator's alone (docs/security.md, "what ACL shapes work"):
 * a waiter that may not read the node it waits for watches the folder's children, and takes its
 * turn. Before that, the waiter failed with {@code NoAuthException: getData <node>}.
 */
@EnsembleTest
class PrivateContenderNodesTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final String PATH = "/private/rw";
    private static final Set<String> FOLDERS = Set.of("/private", PATH);
    private static final AclProvider PRIVATE_NODES = PrivateNodes.provider(FOLDERS::contains);

    EmbeddedEnsemble ensemble;

    private BatonClient client(String user) {
        return PrivateNodes.client(ensemble, user, PRIVATE_NODES);
    }

    @Test
    void aReaderAndAWriterOfAnotherIdentityWaitForTheirTurns() throws Exception {
        try (BatonClient alice = client("alice"); BatonClient bob = client("bob")) {
            InterProcessReadWriteLock alices = new InterProcessReadWriteLock(alice, PATH);
            InterProcessReadWriteLock bobs = new InterProcessReadWriteLock(bob, PATH);
            WriteLease writing = alices.writeLock().acquireLease();

            assertThat(bobs.readLock().acquireLease(Duration.ofMillis(300))).as("bob's reader waits, until his timeout").isNull();
            CompletableFuture<ReadLease> reader = bobs.readLock().acquireAsync();
            await().atMost(WAIT).until(() -> reader.isDone() || alices.participantNodes().size() == 2);
            assertThat(reader).as("bob's reader waits behind alice's writer").isNotDone();
            writing.release();
            ReadLease reading = reader.get(WAIT.toSeconds(), TimeUnit.SECONDS);

            CompletableFuture<WriteLease> writer = alices.writeLock().acquireAsync();
            await().atMost(WAIT).until(() -> writer.isDone() || alices.participantNodes().size() == 2);
            assertThat(writer).as("alice's writer waits behind bob's reader").isNotDone();
            reading.release();
            writer.get(WAIT.toSeconds(), TimeUnit.SECONDS).release();
        }
    }
}
