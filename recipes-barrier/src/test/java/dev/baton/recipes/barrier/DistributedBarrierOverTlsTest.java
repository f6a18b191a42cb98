package dev.baton.recipes.barrier;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.framework.BatonClient;
import dev.baton.test.EnsembleTest;
import dev.baton.test.TestSecurity;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * {@link DistributedBarrierTest} again over TLS: the servers serve TLS only and require client certificates,
 * every client is {@code x509:CN=recipes} and makes its nodes with {@code CREATOR_ALL}
 * ({@code @EnsembleTest(tls = true)}, test-support's {@code TestSecurity}). A client of another identity can neither read,
 * change nor remove the barrier. Runs with
 * {@code -Ptls} (docs/security.md).
 */
@Tag("tls")
@EnsembleTest(tls = true)
class DistributedBarrierOverTlsTest extends DistributedBarrierTest {
    /** Not over TLS: its Curator client is made from the connect string alone, without TLS settings. */
    @Override
    void curatorAndBatonShareOneGate(BatonClient client, TestInfo info) {
    }

    @Test
    void anotherIdentityCanNeitherRemoveNorReadTheBarrier(BatonClient owner) throws InterruptedException {
        DistributedBarrier barrier = new DistributedBarrier(owner, "/tls-acl/barrier");
        barrier.setBarrier();
        try (BatonClient intruder = TestSecurity.client("intruder")) {
            assertThat(TestSecurity.assertEveryNodeRefused(owner, intruder, "/tls-acl")).isEqualTo(2);
            TestSecurity.refused(() -> new DistributedBarrier(intruder, "/tls-acl/barrier").removeBarrier());
        }
        assertThat(owner.checkExists().forPath("/tls-acl/barrier")).as("the barrier stands").isNotNull();
        barrier.removeBarrier();
    }
}
