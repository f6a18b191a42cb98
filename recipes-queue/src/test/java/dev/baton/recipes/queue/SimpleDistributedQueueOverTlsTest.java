package dev.baton.recipes.queue;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.framework.BatonClient;
import dev.baton.test.EnsembleTest;
import dev.baton.test.TestSecurity;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@link SimpleDistributedQueueTest} again over TLS: the servers serve TLS only and require client certificates,
 * every client is {@code x509:CN=recipes} and makes its nodes with {@code CREATOR_ALL}
 * ({@code @EnsembleTest(tls = true)}, test-support's {@code TestSecurity}). A client of another identity can neither read,
 * take, change nor add an item. Runs with
 * {@code -Ptls} (docs/security.md).
 */
@Tag("tls")
@EnsembleTest(tls = true)
class SimpleDistributedQueueOverTlsTest extends SimpleDistributedQueueTest {
    private static final Duration ACL_WAIT = Duration.ofSeconds(20);

    @Test
    void anotherIdentityCanNeitherTakeNorOfferNorReadItems(BatonClient owner) throws InterruptedException {
        SimpleDistributedQueue queue = new SimpleDistributedQueue(owner, "/tls-acl/jobs");
        assertThat(queue.offer("resize 42".getBytes(UTF_8))).isTrue();
        try (BatonClient intruder = TestSecurity.client("intruder")) {
            assertThat(TestSecurity.assertEveryNodeRefused(owner, intruder, "/tls-acl")).isGreaterThan(2);
            TestSecurity.refused(() -> new SimpleDistributedQueue(intruder, "/tls-acl/jobs").poll());
            TestSecurity.refused(() -> new SimpleDistributedQueue(intruder, "/tls-acl/jobs").offer("forged".getBytes(UTF_8)));
        }
        assertThat(queue.poll(ACL_WAIT)).as("the item is still there, and the only one").asString(UTF_8).isEqualTo("resize 42");
        assertThat(queue.poll()).isNull();
    }
}
