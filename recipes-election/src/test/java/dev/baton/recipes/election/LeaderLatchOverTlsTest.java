package dev.baton.recipes.election;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.framework.BatonClient;
import dev.baton.test.EnsembleTest;
import dev.baton.test.TestSecurity;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@link LeaderLatchTest} again over TLS: the servers serve TLS only and require client certificates,
 * every client is {@code x509:CN=recipes} and makes its nodes with {@code CREATOR_ALL}
 * ({@code @EnsembleTest(tls = true)}, test-support's {@code TestSecurity}). A client of another identity can neither read,
 * change nor delete a candidate's node. Runs with
 * {@code -Ptls} (docs/security.md).
 */
@Tag("tls")
@EnsembleTest(tls = true)
class LeaderLatchOverTlsTest extends LeaderLatchTest {
    private static final Duration ACL_WAIT = Duration.ofSeconds(20);

    @Test
    void anotherIdentityCanNeitherDeleteTheLeadersNodeNorReadTheCandidates(BatonClient owner) throws InterruptedException {
        try (LeaderLatch latch = new LeaderLatch(owner, "/tls-acl/leader", "a")) {
            latch.start();
            assertThat(latch.await(ACL_WAIT)).as("the only candidate leads").isTrue();
            try (BatonClient intruder = TestSecurity.client("intruder")) {
                assertThat(TestSecurity.assertEveryNodeRefused(owner, intruder, "/tls-acl")).isGreaterThan(2);
            }
            assertThat(latch.hasLeadership()).as("still the leader after the other identity's attempts").isTrue();
        }
    }
}
