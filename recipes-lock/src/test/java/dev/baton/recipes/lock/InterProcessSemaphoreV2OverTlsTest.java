package dev.baton.recipes.lock;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.framework.BatonClient;
import dev.baton.test.EnsembleTest;
import dev.baton.test.TestSecurity;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@link InterProcessSemaphoreV2Test} again over TLS: the servers serve TLS only and require client certificates,
 * every client is {@code x509:CN=recipes} and makes its nodes with {@code CREATOR_ALL}
 * ({@code @EnsembleTest(tls = true)}, test-support's {@code TestSecurity}). A client of another identity can neither read,
 * change nor delete a lease, nor take one. Runs with
 * {@code -Ptls} (docs/security.md).
 */
@Tag("tls")
@EnsembleTest(tls = true)
class InterProcessSemaphoreV2OverTlsTest extends InterProcessSemaphoreV2Test {
    private static final Duration ACL_WAIT = Duration.ofSeconds(20);

    @Test
    void anotherIdentityCanNeitherTouchALeaseNorTakeOne(BatonClient owner) throws InterruptedException {
        InterProcessSemaphoreV2 semaphore = new InterProcessSemaphoreV2(owner, "/tls-acl/semaphore", 2);
        Lease lease = semaphore.acquire(ACL_WAIT);
        assertThat(lease).as("a lease for the test identity").isNotNull();
        try (BatonClient intruder = TestSecurity.client("intruder")) {
            assertThat(TestSecurity.assertEveryNodeRefused(owner, intruder, "/tls-acl")).isGreaterThan(2);
            TestSecurity.refused(() -> new InterProcessSemaphoreV2(intruder, "/tls-acl/semaphore", 2).acquire(ACL_WAIT));
        }
        assertThat(semaphore.participantNodes()).as("the lease is still there").hasSize(1);
        semaphore.returnLease(lease);
    }
}
