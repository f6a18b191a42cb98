package dev.baton.recipes.barrier;

import dev.baton.framework.BatonClient;
import dev.baton.test.EnsembleTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestInfo;

/**
 * {@link DistributedDoubleBarrierTest} again over TLS: the servers serve TLS only and require client certificates,
 * every client is {@code x509:CN=recipes} and makes its nodes with {@code CREATOR_ALL}
 * ({@code @EnsembleTest(tls = true)}, test-support's {@code TestSecurity}). Runs with
 * {@code -Ptls} (docs/security.md).
 */
@Tag("tls")
@EnsembleTest(tls = true)
class DistributedDoubleBarrierOverTlsTest extends DistributedDoubleBarrierTest {
    /** Not over TLS: its Curator client is made from the connect string alone, without TLS settings. */
    @Override
    void curatorAndBatonMembersShareOneBarrier(TestInfo info) {
    }

    /** Not over TLS: its Curator client is made from the connect string alone, without TLS settings. */
    @Override
    void curatorAndBatonMembersLeaveTogetherRoundAfterRound(BatonClient observer, TestInfo info) {
    }

    /** Not over TLS: the member in a child JVM connects with the connect string alone, without the test identity. */
    @Override
    void aKilledMemberCountsUntilItsSessionExpiresThenTheOthersLeave(BatonClient observer, TestInfo info) {
    }
}
