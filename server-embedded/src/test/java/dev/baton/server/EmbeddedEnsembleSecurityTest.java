package dev.baton.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javax.security.auth.login.AppConfigurationEntry;
import javax.security.auth.login.Configuration;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** TLS on the client port with generated certificates, client-certificate and SASL DIGEST-MD5 authentication. */
class EmbeddedEnsembleSecurityTest {
    private static final Duration SESSION = Duration.ofSeconds(10);
    /** How long a refused client is given to (wrongly) get a session; a refused one never does. */
    private static final Duration REFUSED_FOR = Duration.ofSeconds(2);

    @Test
    void generatedCertificatesChainToTheCaAndNameTheLoopbackAddress(@TempDir Path dir) throws Exception {
        LocalCertificates tls = LocalCertificates.create(dir);
        KeyStore trust = load(tls.trustStore(), tls.password());
        X509Certificate ca = (X509Certificate) trust.getCertificate(trust.aliases().nextElement());
        assertThat(ca.getBasicConstraints()).as("the CA may sign").isGreaterThanOrEqualTo(0);

        KeyStore server = load(tls.serverKeyStore(), tls.password());
        Certificate[] chain = server.getCertificateChain("server");
        X509Certificate leaf = (X509Certificate) chain[0];
        leaf.verify(ca.getPublicKey());
        leaf.checkValidity();
        assertThat(leaf.getSubjectAlternativeNames().stream().map(name -> String.valueOf(name.get(1)))).contains("127.0.0.1", "localhost");

        X509Certificate alice = (X509Certificate) load(tls.clientKeyStore("alice"), tls.password()).getCertificateChain("alice")[0];
        alice.verify(ca.getPublicKey());
        assertThat(alice.getSubjectX500Principal().getName()).isEqualTo(LocalCertificates.x509Id("alice"));
        assertThatThrownBy(() -> tls.clientKeyStore("al ice")).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("'al ice'");
    }

    @Test
    void tlsWithClientCertificatesAuthenticatesEachClientAsItsCertificateSubject() throws Exception {
        try (EmbeddedEnsemble ensemble = EmbeddedEnsemble.builder().mode(ServerMode.CHILD_PROCESSES).tls(true)
                 .requireClientCertificates(true).build()) {
            ensemble.start();
            LocalCertificates tls = ensemble.certificates();
            try (ZooKeeper alice = connect(ensemble.connectString(), tls.clientConfig("alice"));
                 ZooKeeper mallory = connect(ensemble.connectString(), tls.clientConfig("mallory"))) {
                alice.create("/owned", "secret".getBytes(), ZooDefs.Ids.CREATOR_ALL_ACL, CreateMode.PERSISTENT);
                alice.create("/owned/held", new byte[0], ZooDefs.Ids.CREATOR_ALL_ACL, CreateMode.EPHEMERAL);
                List<ACL> acl = alice.getACL("/owned", new Stat());
                assertThat(acl).singleElement().satisfies(entry -> {
                    assertThat(entry.getId().getScheme()).isEqualTo("x509");
                    assertThat(entry.getId().getId()).isEqualTo(LocalCertificates.x509Id("alice"));
                });
                assertThat(alice.getData("/owned", false, null)).isEqualTo("secret".getBytes());
                // reading needs READ on the node; deleting a child needs DELETE on its parent
                assertThatThrownBy(() -> mallory.getData("/owned", false, null)).isInstanceOf(KeeperException.NoAuthException.class);
                assertThatThrownBy(() -> mallory.delete("/owned/held", -1)).isInstanceOf(KeeperException.NoAuthException.class);
            }
            assertThat(neverConnects(ensemble.connectString(), tls.trustingClientConfig()))
                .as("a TLS client without a certificate is refused").isTrue();
            assertThat(neverConnects(ensemble.connectString(), new ZKClientConfig()))
                .as("a plain client is refused by a TLS-only port").isTrue();
        }
    }

    @Test
    void requiredSaslDigestAuthenticationClosesSessionsThatDoNotAuthenticate() throws Exception {
        Configuration previous = Configuration.getConfiguration();
        Configuration.setConfiguration(new ClientSections(Map.of("baton-test-alice", List.of("alice", "alice-secret"))));
        try (EmbeddedEnsemble ensemble = EmbeddedEnsemble.builder().mode(ServerMode.CHILD_PROCESSES)
                 .saslUser("alice", "alice-secret").saslUser("bob", "bob-secret").build()) {
            ensemble.start();
            ZKClientConfig asAlice = new ZKClientConfig();
            asAlice.setProperty(ZKClientConfig.LOGIN_CONTEXT_NAME_KEY, "baton-test-alice");
            asAlice.setProperty("zookeeper.fips-mode", "false"); // ZooKeeper 3.9's FIPS mode turns DIGEST-MD5 off
            try (ZooKeeper alice = connect(ensemble.connectString(), asAlice)) {
                alice.create("/owned", new byte[0], ZooDefs.Ids.CREATOR_ALL_ACL, CreateMode.PERSISTENT);
                assertThat(alice.getACL("/owned", new Stat())).singleElement()
                    .satisfies(entry -> assertThat(entry.getId().toString()).contains("sasl").contains("alice"));
            }
            ZKClientConfig anonymous = new ZKClientConfig();
            anonymous.setProperty(ZKClientConfig.ENABLE_CLIENT_SASL_KEY, "false");
            try (ZooKeeper stranger = connect(ensemble.connectString(), anonymous)) {
                assertThatThrownBy(() -> stranger.exists("/owned", false))
                    .isInstanceOf(KeeperException.class)
                    .satisfies(e -> assertThat(((KeeperException) e).code())
                        .isIn(KeeperException.Code.SESSIONCLOSEDREQUIRESASLAUTH, KeeperException.Code.CONNECTIONLOSS,
                            KeeperException.Code.AUTHFAILED));
            }
        } finally {
            Configuration.setConfiguration(previous);
        }
    }

    @Test
    void securityNeedsChildProcessesAndCertificatesNeedTls() {
        assertThatThrownBy(() -> EmbeddedEnsemble.builder().tls(true).build())
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("CHILD_PROCESSES");
        assertThatThrownBy(() -> EmbeddedEnsemble.builder().mode(ServerMode.CHILD_PROCESSES).requireClientCertificates(true).build())
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("needs tls(true)");
        assertThatThrownBy(() -> EmbeddedEnsemble.builder().saslUser("a b", "x"))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'a b'");
    }

    private static ZooKeeper connect(String connect, ZKClientConfig config) throws Exception {
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper zk = new ZooKeeper(connect, (int) SESSION.toMillis(), event -> {
            if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
            }
        }, config);
        assertThat(connected.await(30, TimeUnit.SECONDS)).as("connected to %s", connect).isTrue();
        return zk;
    }

    /** Whether a client with {@code config} gets no session within {@link #REFUSED_FOR}. */
    private static boolean neverConnects(String connect, ZKClientConfig config) throws Exception {
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper zk = new ZooKeeper(connect, (int) SESSION.toMillis(), event -> {
            if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
            }
        }, config);
        try {
            return !connected.await(REFUSED_FOR.toMillis(), TimeUnit.MILLISECONDS);
        } finally {
            zk.close(100);
        }
    }

    private static KeyStore load(Path file, String password) throws Exception {
        KeyStore store = KeyStore.getInstance(LocalCertificates.STORE_TYPE);
        try (InputStream in = Files.newInputStream(file)) {
            store.load(in, password.toCharArray());
        }
        return store;
    }

    /** JAAS client sections, each a DIGEST-MD5 user and password, as a JAAS file's {@code Client} section would give. */
    private static final class ClientSections extends Configuration {
        private final Map<String, List<String>> sections;

        ClientSections(Map<String, List<String>> sections) {
            this.sections = sections;
        }

        @Override
        public AppConfigurationEntry[] getAppConfigurationEntry(String name) {
            List<String> user = sections.get(name);
            if (user == null) {
                return null;
            }
            return new AppConfigurationEntry[] {new AppConfigurationEntry("org.apache.zookeeper.server.auth.DigestLoginModule",
                AppConfigurationEntry.LoginModuleControlFlag.REQUIRED, Map.of("username", user.get(0), "password", user.get(1)))};
        }
    }
}
