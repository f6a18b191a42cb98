package dev.baton.recipes.group;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.framework.retry.RetryNTimes;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.ChaosProxy;
import dev.baton.test.EnsembleTest;
import dev.baton.test.TestClients;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.Test;

/** Names under namespaces: unique, looked up, listed, released; one name per call even when a reply is lost. */
@EnsembleTest
class NamingServiceTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    EmbeddedEnsemble ensemble;

    private static byte[] bytes(String s) {
        return s.getBytes(UTF_8);
    }

    @Test
    void aNameOnAContainerOrTtlNodeIsPersistentNotEphemeral(BatonClient client) throws Exception {
        // both kinds mark their stat's ephemeralOwner field, but neither goes with a session
        client.create().withMode(CreateMode.PERSISTENT_WITH_TTL).withTtl(Duration.ofMinutes(10)).creatingParentsIfNeeded()
            .forPath("/kinds/ttl0000000001", bytes("t"));
        client.create().withMode(CreateMode.CONTAINER).creatingParentsIfNeeded().forPath("/kinds/container0000000002", bytes("c"));
        client.create().withMode(CreateMode.EPHEMERAL).forPath("/kinds/ephemeral0000000003", bytes("e"));
        NamingService names = new NamingService(client);

        assertThat(names.lookup("/kinds/ttl0000000001").orElseThrow().lifetime()).as("a TTL node").isEqualTo(NameLifetime.PERSISTENT);
        assertThat(names.lookup("/kinds/container0000000002").orElseThrow().lifetime()).as("a container")
            .isEqualTo(NameLifetime.PERSISTENT);
        assertThat(names.lookup("/kinds/ephemeral0000000003").orElseThrow().lifetime()).isEqualTo(NameLifetime.EPHEMERAL);
    }

    @Test
    void namesAreRegisteredLookedUpListedInOrderAndReleased(BatonClient client) throws Exception {
        NamingService names = new NamingService(client);
        RegisteredName first = names.register("/business/metrics", bytes("10.0.0.1:9100"));
        RegisteredName second = names.register("/business/metrics", bytes("10.0.0.2:9100"));
        RegisteredName logs = names.register("/business/logs", bytes("10.0.0.3:5044"));

        assertThat(first.name()).matches("/business/metrics\\d{10}");
        assertThat(first.nodePath()).matches("/business/_c_[0-9a-f-]{36}-metrics\\d{10}");
        assertThat(first.lifetime()).isEqualTo(NameLifetime.PERSISTENT);
        assertThat(second.sequence()).isGreaterThan(first.sequence());
        assertThat(logs.czxid()).isGreaterThan(second.czxid());
        assertThat(names.list("/business")).containsExactly(first.name(), second.name(), logs.name());

        NameEntry found = names.lookup(second.name()).orElseThrow();
        assertThat(found.data()).isEqualTo(bytes("10.0.0.2:9100"));
        assertThat(found.nodePath()).isEqualTo(second.nodePath());
        assertThat(found.lifetime()).isEqualTo(NameLifetime.PERSISTENT);

        assertThat(names.release(second.name())).isTrue();
        assertThat(names.release(second.name())).as("released already").isFalse();
        assertThat(names.lookup(second.name())).isEmpty();
        assertThat(names.list("/business")).containsExactly(first.name(), logs.name());
        RegisteredName third = names.register("/business/metrics", bytes("10.0.0.4:9100"));
        assertThat(third.sequence()).as("a released name is never handed out again").isGreaterThan(logs.sequence());
        assertThat(names.list("/nothing-here")).isEmpty();
        assertThat(names.lookup("/nothing-here/x0000000001")).isEmpty();
    }

    @Test
    void anEphemeralNameGoesWithItsRegistrantsSession(BatonClient client) throws Exception {
        NamingService names = new NamingService(client);
        RegisteredName lasting;
        RegisteredName sessional;
        try (BatonClient registrant = TestClients.started(ensemble.connectString(), Duration.ofSeconds(10))) {
            NamingService theirs = new NamingService(registrant);
            lasting = theirs.register("/infrastructure/host", bytes("a"), NameLifetime.PERSISTENT);
            sessional = theirs.register("/infrastructure/host", bytes("b"), NameLifetime.EPHEMERAL);
            assertThat(names.lookup(sessional.name()).orElseThrow().lifetime()).isEqualTo(NameLifetime.EPHEMERAL);
        }
        assertThat(names.lookup(sessional.name())).as("its session ended with the registrant's close").isEmpty();
        assertThat(names.lookup(lasting.name())).isPresent();
    }

    @Test
    void namesMadeWithoutProtectionAreListedAndFoundToo(BatonClient client) throws Exception {
        // the classic naming example: a bare sequential create per name
        String plain = client.create().withMode(CreateMode.PERSISTENT_SEQUENTIAL).creatingParentsIfNeeded()
            .forPath("/legacy/printer", bytes("p"));
        NamingService names = new NamingService(client);
        assertThat(names.list("/legacy")).containsExactly(plain);
        assertThat(names.lookup(plain).orElseThrow().data()).isEqualTo(bytes("p"));
        assertThat(names.release(plain)).isTrue();
    }

    @Test
    void aRegistrationWhoseReplyIsLostRegistersOneName(BatonClient direct) throws Exception {
        try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1));
             BatonClient client = TestClients.started(BatonClient.builder().connectString(proxy.connectString())
                 .sessionTimeout(Duration.ofSeconds(20)).connectionTimeout(Duration.ofSeconds(5))
                 .retryPolicy(new RetryNTimes(10, Duration.ofMillis(10))))) {
            NamingService names = new NamingService(client);
            direct.create().forPath("/lost");
            for (int round = 0; round < 3; round++) {
                int before = direct.getChildren().forPath("/lost").size();
                NameLifetime lifetime = round % 2 == 0 ? NameLifetime.PERSISTENT : NameLifetime.EPHEMERAL;
                proxy.pauseReplies();
                CompletableFuture<RegisteredName> registered = CompletableFuture.supplyAsync(() -> {
                    try {
                        return names.register("/lost/job", bytes("j"), lifetime);
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                });
                await().atMost(WAIT).until(() -> direct.getChildren().forPath("/lost").size() == before + 1); // applied...
                proxy.cut();   // ...and its reply lost with the connection
                proxy.heal();
                RegisteredName name = registered.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
                List<String> all = names.list("/lost");
                assertThat(all).as("round %d: one call, one name", round).hasSize(before + 1).contains(name.name());
            }
        }
    }

    @Test
    void badNamesAndPrefixesAreRefusedSayingWhatANameIs(BatonClient client) {
        NamingService names = new NamingService(client);
        assertThatThrownBy(() -> names.lookup("/business/metrics"))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("a registered name ends with a 10-digit sequence number, such as /business/metrics0000000001; "
                + "was /business/metrics");
        assertThatThrownBy(() -> names.register("/", bytes("x"))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> names.register("business/metrics", bytes("x")))
            .isInstanceOf(dev.baton.framework.InvalidPathException.class);
    }
}
