package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.server.LocalCertificates;
import dev.baton.server.ServerMode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code baton} against one server that serves TLS only and requires SASL DIGEST-MD5
 * authentication, as production ensembles do: the commands that ask the servers with four-letter
 * words ({@code status}, {@code sessions}, {@code doctor}) ask over TLS with the same options as
 * the client's connection; recipe commands authenticate with {@code --sasl-user}; and a client
 * whose TLS or password does not fit fails at once, naming why, instead of waiting out its
 * connect timeout.
 */
class SecureEnsembleCommandsTest {
    private static final Duration WAIT = AgainstEnsemble.WAIT;
    /** Given to the commands expected to fail: they must fail well before it (not a hang). */
    private static final String LONG_CONNECT_TIMEOUT = "60s";
    private static final ObjectMapper JSON = new ObjectMapper();

    static EmbeddedEnsemble ensemble;
    @TempDir
    Path dir;

    @BeforeAll
    static void startEnsemble() {
        // ZooKeeper reads TLS and SASL settings from system properties: the server runs in a JVM of its own
        ensemble = EmbeddedEnsemble.builder().mode(ServerMode.CHILD_PROCESSES).tls(true).saslUser("ops", "secret").build();
        ensemble.start();
    }

    @AfterAll
    static void closeEnsemble() {
        if (ensemble != null) {
            ensemble.close();
        }
    }

    /** What a client of this ensemble needs: where it is, the CA, and the SASL user. */
    private static Map<String, String> env(String saslPassword) {
        Map<String, String> env = new HashMap<>();
        env.put("BATON_CONNECT", ensemble.connectString());
        env.put("BATON_TLS_TRUSTSTORE", ensemble.certificates().trustStore().toString());
        env.put("BATON_TLS_TRUSTSTORE_PASSWORD", ensemble.certificates().password());
        env.put("BATON_SASL_USER", "ops");
        env.put("BATON_SASL_PASSWORD", saslPassword);
        return env;
    }

    private BatonProcess run(Map<String, String> env, int expected, String... args) throws Exception {
        BatonProcess baton = BatonProcess.start(dir, env, args);
        assertThat(baton.finish(WAIT)).as("exit code of baton %s; stdout: %s; stderr: %s", String.join(" ", args), baton.stdout(),
            baton.stderr()).isEqualTo(expected);
        return baton;
    }

    @Test
    void statusSessionsAndDoctorAskTheServersOverTls() throws Exception {
        Map<String, String> env = env("secret");
        String server = "127.0.0.1:" + ensemble.clientPort(1);

        String status = run(env, ExitCodes.OK, "status").stdout();
        assertThat(status).containsPattern(server.replace(".", "\\.") + " +standalone +zxid 0x");

        String sessions = run(env, ExitCodes.OK, "sessions", "--counts").stdout();
        assertThat(sessions).containsPattern(server.replace(".", "\\.") + " +standalone ");

        JsonNode doctor = JSON.readTree(run(env, ExitCodes.OK, "doctor", "--json").stdout());
        assertThat(doctor.get("servers").get(0).get("status").asText()).isEqualTo("serving");
        assertThat(doctor.get("servers").get(0).get("version").asText()).startsWith("3.");
        Map<String, String> results = new HashMap<>();
        doctor.get("checks").forEach(check -> results.put(check.get("name").asText(), check.get("result").asText()));
        assertThat(results).containsEntry("servers", "ok").containsEntry("connection", "ok").containsEntry("round trip", "ok");
    }

    @Test
    void recipeCommandsAuthenticateWithSaslDigest() throws Exception {
        Map<String, String> env = env("secret");
        assertThat(run(env, ExitCodes.OK, "lock", "secure", "--", "sh", "-c", "echo \"held $BATON_FENCE\"").stdout())
            .startsWith("held ");
        run(env, ExitCodes.OK, "config", "set", "secure", "db/url", "jdbc:x");
        assertThat(run(env, ExitCodes.OK, "config", "get", "secure", "db/url").stdout()).isEqualTo("jdbc:x\n");
    }

    @Test
    void aWrongSaslPasswordFailsAtOnceSayingSo() throws Exception {
        BatonProcess wrong = BatonProcess.start(dir, env("not-the-secret"), "config", "get", "secure", "db/url",
            "--connect-timeout", LONG_CONNECT_TIMEOUT);
        long start = System.nanoTime();
        int code = wrong.finish(WAIT);
        assertThat(code).as("stdout: %s; stderr: %s", wrong.stdout(), wrong.stderr()).isEqualTo(ExitCodes.NO_PERMISSION);
        assertThat(wrong.stderr()).contains("refused SASL user 'ops'");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).as("not the connect timeout").isLessThan(Duration.ofSeconds(30));
    }

    @Test
    void aClientWhoseTlsDoesNotFitFailsAtOnceNamingWhy() throws Exception {
        // a CA of its own: the servers' certificate is not signed by it
        LocalCertificates stranger = LocalCertificates.create(dir.resolve("stranger"));
        Map<String, String> wrongCa = env("secret");
        wrongCa.put("BATON_TLS_TRUSTSTORE", stranger.trustStore().toString());
        wrongCa.put("BATON_TLS_TRUSTSTORE_PASSWORD", stranger.password());
        Map<String, String> plain = Map.of("BATON_CONNECT", ensemble.connectString());

        for (Map<String, String> env : java.util.List.of(wrongCa, plain)) {
            String expected = env == plain ? "does this port serve TLS only" : "TLS handshake failed";
            assertThat(run(env, ExitCodes.UNAVAILABLE, "status").stderr()).contains(expected);
            long start = System.nanoTime();
            assertThat(run(env, ExitCodes.UNAVAILABLE, "ls", "/", "--connect-timeout", LONG_CONNECT_TIMEOUT).stderr())
                .contains(expected);
            assertThat(Duration.ofNanos(System.nanoTime() - start)).as("not the connect timeout").isLessThan(Duration.ofSeconds(30));
        }
    }
}
