package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.framework.BatonClient;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.zookeeper.client.ZKClientConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The TLS and authentication options of every client command, as ZooKeeper client settings. */
class ClientSecurityTest {
    @TempDir
    Path dir;

    private static ConnectOptions parse(String... args) {
        ConnectOptions options = new ConnectOptions();
        new CommandLine(options).parseArgs(args);
        return options;
    }

    @Test
    void noTlsOrSaslOptionLeavesZooKeepersDefaults() {
        assertThat(ClientSecurity.clientConfig(parse())).isNull();
    }

    @Test
    void aTrustStoreAndKeyStoreMakeATlsConfiguration() throws Exception {
        Path trust = Files.writeString(dir.resolve("ca.p12"), "");
        Path keys = Files.writeString(dir.resolve("me.p12"), "");
        ZKClientConfig config = ClientSecurity.clientConfig(parse("--truststore", trust.toString(), "--truststore-password", "t",
            "--keystore", keys.toString(), "--keystore-password", "k"));
        assertThat(config.getBoolean(ZKClientConfig.SECURE_CLIENT)).isTrue();
        assertThat(config.getProperty(ZKClientConfig.ZOOKEEPER_CLIENT_CNXN_SOCKET)).endsWith("ClientCnxnSocketNetty");
        assertThat(config.getProperty("zookeeper.ssl.trustStore.location")).isEqualTo(trust.toString());
        assertThat(config.getProperty("zookeeper.ssl.trustStore.password")).isEqualTo("t");
        assertThat(config.getProperty("zookeeper.ssl.keyStore.location")).isEqualTo(keys.toString());
        assertThat(config.getProperty("zookeeper.ssl.keyStore.password")).isEqualTo("k");
        assertThat(config.getProperty(ZKClientConfig.ENABLE_CLIENT_SASL_KEY)).isEqualTo("false");
    }

    @Test
    void saslCredentialsNameBatonsOwnJaasSection() {
        ZKClientConfig config = ClientSecurity.clientConfig(parse("--sasl-user", "ops", "--sasl-password", "secret"));
        assertThat(config.getProperty(ZKClientConfig.LOGIN_CONTEXT_NAME_KEY)).isEqualTo(ClientSecurity.SASL_SECTION);
        assertThat(javax.security.auth.login.Configuration.getConfiguration().getAppConfigurationEntry(ClientSecurity.SASL_SECTION))
            .singleElement().satisfies(entry -> assertThat(entry.getOptions().get("username")).isEqualTo("ops"));
    }

    @Test
    void incompleteOrMalformedSettingsAreUsageErrors() {
        assertThatThrownBy(() -> ClientSecurity.clientConfig(parse("--truststore", dir.resolve("missing.p12").toString())))
            .isInstanceOfSatisfying(CliExit.class, e -> assertThat(e.code()).isEqualTo(ExitCodes.USAGE))
            .hasMessageContaining("missing.p12");
        assertThatThrownBy(() -> ClientSecurity.clientConfig(parse("--sasl-user", "ops")))
            .isInstanceOfSatisfying(CliExit.class, e -> assertThat(e.code()).isEqualTo(ExitCodes.USAGE))
            .hasMessageContaining("--sasl-password");
        assertThatThrownBy(() -> ClientSecurity.configure(BatonClient.builder(), parse("--auth", "digest")))
            .isInstanceOfSatisfying(CliExit.class, e -> assertThat(e.code()).isEqualTo(ExitCodes.USAGE))
            .hasMessageContaining("SCHEME:CREDENTIALS");
    }
}
