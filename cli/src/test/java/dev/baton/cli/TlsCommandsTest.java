package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code baton server --tls} prints what a client needs, and a client command connects with it,
 * from the environment or from options; without it, the command is refused, not hung.
 */
class TlsCommandsTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final Pattern EXPORT = Pattern.compile("(?m)^  export (BATON_[A-Z_]+)=(\\S+)$");

    @TempDir
    Path dir;

    @Test
    void aClientCommandConnectsOverTlsWithWhatServerTlsPrinted() throws Exception {
        try (BatonProcess server = BatonProcess.start(dir, Map.of(), "server", "--nodes", "1", "--port", "0", "--tls",
            "--require-client-cert")) {
            await().atMost(WAIT).until(() -> server.stdout().contains("serving; Ctrl-C to stop") || !server.isAlive());
            assertThat(server.isAlive()).as("serving; stderr: %s", server.stderr()).isTrue();
            Map<String, String> env = new HashMap<>();
            Matcher export = EXPORT.matcher(server.stdout());
            while (export.find()) {
                env.put(export.group(1), export.group(2));
            }
            assertThat(env).as("printed: %s", server.stdout()).containsKeys("BATON_CONNECT", "BATON_TLS_TRUSTSTORE",
                "BATON_TLS_TRUSTSTORE_PASSWORD", "BATON_TLS_KEYSTORE", "BATON_TLS_KEYSTORE_PASSWORD");

            BatonProcess fromEnvironment = BatonProcess.start(dir, env, "ls", "/");
            assertThat(fromEnvironment.finish(WAIT)).as("stderr: %s", fromEnvironment.stderr()).isZero();
            assertThat(fromEnvironment.stdout()).contains("zookeeper");

            BatonProcess fromOptions = BatonProcess.start(dir, Map.of(), "set", "/made-over-tls", "hello",
                "-s", env.get("BATON_CONNECT"),
                "--truststore", env.get("BATON_TLS_TRUSTSTORE"), "--truststore-password", env.get("BATON_TLS_TRUSTSTORE_PASSWORD"),
                "--keystore", env.get("BATON_TLS_KEYSTORE"), "--keystore-password", env.get("BATON_TLS_KEYSTORE_PASSWORD"));
            assertThat(fromOptions.finish(WAIT)).as("stderr: %s", fromOptions.stderr()).isZero();

            BatonProcess plain = BatonProcess.start(dir, Map.of("BATON_CONNECT", env.get("BATON_CONNECT")),
                "ls", "/", "--connect-timeout", "2s");
            assertThat(plain.finish(WAIT)).as("a plain client on a TLS port; stdout: %s", plain.stdout())
                .isEqualTo(ExitCodes.UNAVAILABLE);
        }
    }
}
