package dev.baton.framework;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.ServerCapabilities.Feature;
import dev.baton.framework.retry.RetryNTimes;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.ChaosProxy;
import dev.baton.test.EnsembleTest;
import dev.baton.test.TestClients;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs.Ids;
import org.apache.zookeeper.ZooDefs.Perms;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.server.auth.DigestAuthenticationProvider;
import org.junit.jupiter.api.Test;

/**
 * A protected ephemeral create whose reply is lost finds its node again both ways: with
 * {@code getEphemerals} on a server that has it (3.6.0+, learned at connect), and by listing the
 * folder where the server lacks it (here: the client told to assume a 3.5 server). Each round:
 * the proxy holds the replies, the server applies the create, the connection is cut, the retry
 * looks for its node. Exactly one node per create, and it is the one the create returns.
 */
@EnsembleTest
class LostCreateReplyRecoveryTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    EmbeddedEnsemble ensemble;

    private BatonClient client(ChaosProxy proxy, ServerCapabilities assumed) {
        BatonClient.Builder builder = BatonClient.builder().connectString(proxy.connectString())
            .sessionTimeout(Duration.ofSeconds(20)).connectionTimeout(Duration.ofSeconds(5))
            .retryPolicy(new RetryNTimes(10, Duration.ofMillis(10)));
        BatonClient client = TestClients.started(assumed == null ? builder : builder.assumeServerCapabilities(assumed));
        // learn before any reply is held: the probes go through the proxy too
        await().atMost(WAIT).until(() -> client.serverCapabilities().supports(Feature.GET_EPHEMERALS) || assumed != null);
        return client;
    }

    @Test
    void aLostReplyIsRecoveredWithGetEphemeralsOnAServerThatHasIt(BatonClient direct) throws Exception {
        direct.create().forPath("/fast");
        try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1));
             BatonClient client = client(proxy, null)) {
            loseRepliesAndRecover(direct, "/fast", client, proxy);
        }
    }

    @Test
    void aLostReplyIsRecoveredByListingOnAServerWithoutGetEphemerals(BatonClient direct) throws Exception {
        direct.create().forPath("/listed");
        try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1));
             BatonClient client = client(proxy, ServerCapabilities.ofVersion("3.5.10"))) {
            assertThat(client.serverCapabilities().lacks(Feature.GET_EPHEMERALS)).isTrue();
            loseRepliesAndRecover(direct, "/listed", client, proxy);
        }
    }

    /**
     * The proof that the fast path is the one taken: in a folder where the client may create
     * and delete but not list, only {@code getEphemerals} (which reads the session's own nodes and
     * checks no folder permission) can find the node.
     */
    @Test
    void getEphemeralsRecoversEvenInAFolderTheClientMayNotList(BatonClient direct) throws Exception {
        try (BatonClient admin = TestClients.started(BatonClient.builder().connectString(ensemble.connectString())
            .authorization("digest", "admin:secret".getBytes(StandardCharsets.UTF_8)))) {
            List<ACL> writeOnly = List.of(
                new ACL(Perms.ALL, new Id("digest", DigestAuthenticationProvider.generateDigest("admin:secret"))),
                new ACL(Perms.CREATE | Perms.DELETE, Ids.ANYONE_ID_UNSAFE));
            admin.create().withAcl(writeOnly).forPath("/write-only");
            try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1));
                 BatonClient client = client(proxy, null)) {
                assertThatThrownBy(() -> client.getChildren().forPath("/write-only")).isInstanceOf(NoAuthException.class);
                loseRepliesAndRecover(admin, "/write-only", client, proxy);
            }
        }
    }

    /** Both protections, sequential and not; {@code reader} may list {@code folder}. */
    private static void loseRepliesAndRecover(BatonClient reader, String folder, BatonClient client, ChaosProxy proxy)
        throws Exception {
        long session = client.sessionId();
        String[] names = {"uuid-seq-", "session-seq-", "uuid-plain", "session-plain"};
        for (int round = 0; round < names.length; round++) {
            boolean sessionProtection = names[round].startsWith("session");
            CreateMode mode = names[round].endsWith("-") ? CreateMode.EPHEMERAL_SEQUENTIAL : CreateMode.EPHEMERAL;
            int before = reader.getChildren().forPath(folder).size();
            proxy.pauseReplies();
            CreateBuilder create = client.create().withMode(mode);
            create = sessionProtection ? create.withSessionProtection() : create.withProtection();
            CompletableFuture<String> created = create.forPathAsync(folder + "/" + names[round],
                ("round " + round).getBytes(StandardCharsets.UTF_8));
            // the server applied it...
            await().atMost(WAIT).until(() -> reader.getChildren().forPath(folder).size() == before + 1);
            // ...and the reply is lost with the connection
            proxy.cut();
            proxy.heal();
            String path = created.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);

            List<String> children = reader.getChildren().forPath(folder);
            assertThat(children).as("%s: exactly one node for one create", names[round]).hasSize(before + 1);
            assertThat(children).contains(path.substring(folder.length() + 1));
            assertThat(reader.checkExists().forPath(path).getEphemeralOwner()).isEqualTo(session);
        }
        assertThat(client.sessionId()).as("the same session throughout").isEqualTo(session);
    }
}
