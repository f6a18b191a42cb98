package dev.baton.recipes.config;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.framework.BatonClient;
import dev.baton.test.EnsembleTest;
import dev.baton.test.TestSecurity;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@link ConfigStoreTest} again over TLS: the servers serve TLS only and require client certificates,
 * every client is {@code x509:CN=recipes} and makes its nodes with {@code CREATOR_ALL}
 * ({@code @EnsembleTest(tls = true)}, test-support's {@code TestSecurity}). A client of another identity can neither read
 * nor change a value. Runs with
 * {@code -Ptls} (docs/security.md).
 */
@Tag("tls")
@EnsembleTest(tls = true)
class ConfigStoreOverTlsTest extends ConfigStoreTest {
    private static final Duration ACL_WAIT = Duration.ofSeconds(20);

    @Test
    void anotherIdentityCanNeitherReadNorChangeAProtectedValue(BatonClient owner) throws InterruptedException {
        try (ConfigStore config = ConfigStore.builder(owner, "/tls-acl/config").build()) {
            config.start();
            assertThat(config.awaitInitialized(ACL_WAIT)).isTrue();
            config.set("db/password", "s3cret".getBytes(UTF_8));
            try (BatonClient intruder = TestSecurity.client("intruder")) {
                assertThat(TestSecurity.assertEveryNodeRefused(owner, intruder, "/tls-acl")).isGreaterThan(2);
            }
            assertThat(owner.getData().forPath("/tls-acl/config/db/password")).asString(UTF_8).isEqualTo("s3cret");
        }
    }
}
