package dev.baton.recipes.transaction;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.framework.BatonClient;
import dev.baton.test.EnsembleTest;
import dev.baton.test.TestSecurity;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@link TransactionTest} again over TLS: the servers serve TLS only and require client certificates,
 * every client is {@code x509:CN=recipes} and makes its nodes with {@code CREATOR_ALL}
 * ({@code @EnsembleTest(tls = true)}, test-support's {@code TestSecurity}). A client of another identity can neither start
 * a transaction nor read, change or delete a participant's nodes. Runs with
 * {@code -Ptls} (docs/security.md).
 */
@Tag("tls")
@EnsembleTest(tls = true)
class TransactionOverTlsTest extends TransactionTest {
    @Test
    void anotherIdentityCanNeitherStartATransactionNorTouchAParticipantsNodes(BatonClient owner) throws InterruptedException {
        try (TransactionParticipant participant = TransactionParticipant.builder(owner, "/tls-acl/tx", "a", new RecordingHandler()).build()) {
            participant.start();
            try (BatonClient intruder = TestSecurity.client("intruder");
                 TransactionCoordinator theirs = TransactionCoordinator.builder(intruder, "/tls-acl/tx").build()) {
                assertThat(TestSecurity.assertEveryNodeRefused(owner, intruder, "/tls-acl")).isGreaterThan(2);
                TestSecurity.refused(() -> theirs.start(Set.of("a"), "forged".getBytes(UTF_8), Duration.ofSeconds(10)));
            }
        }
    }
}
