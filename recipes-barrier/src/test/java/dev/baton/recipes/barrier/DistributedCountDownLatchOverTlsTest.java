package dev.baton.recipes.barrier;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.framework.BatonClient;
import dev.baton.test.EnsembleTest;
import dev.baton.test.TestSecurity;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@link DistributedCountDownLatchTest} again over TLS: the servers serve TLS only and require client certificates,
 * every client is {@code x509:CN=recipes} and makes its nodes with {@code CREATOR_ALL}
 * ({@code @EnsembleTest(tls = true)}, test-support's {@code TestSecurity}). A client of another identity can neither read,
 * change nor count down the latch. Runs with
 * {@code -Ptls} (docs/security.md).
 */
@Tag("tls")
@EnsembleTest(tls = true)
class DistributedCountDownLatchOverTlsTest extends DistributedCountDownLatchTest {
    @Test
    void anotherIdentityCanNeitherCountDownNorReadTheLatch(BatonClient owner) throws InterruptedException {
        DistributedCountDownLatch latch = new DistributedCountDownLatch(owner, "/tls-acl/latch");
        assertThat(latch.trySetCount(2)).isTrue();
        try (BatonClient intruder = TestSecurity.client("intruder")) {
            assertThat(TestSecurity.assertEveryNodeRefused(owner, intruder, "/tls-acl")).isGreaterThan(1);
            TestSecurity.refused(() -> new DistributedCountDownLatch(intruder, "/tls-acl/latch").countDown());
        }
        assertThat(latch.getCount()).as("nothing counted").isEqualTo(2);
    }
}
