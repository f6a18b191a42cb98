package dev.baton.recipes.rwlock;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.framework.BatonClient;
import dev.baton.test.EnsembleTest;
import dev.baton.test.TestSecurity;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@link InterProcessReadWriteLockTest} again over TLS: the servers serve TLS only and require client certificates,
 * every client is {@code x509:CN=recipes} and makes its nodes with {@code CREATOR_ALL}
 * ({@code @EnsembleTest(tls = true)}, test-support's {@code TestSecurity}). A client of another identity can neither read,
 * change nor delete a holder's node, nor take the read or the write lock. Runs with
 * {@code -Ptls} (docs/security.md).
 */
@Tag("tls")
@EnsembleTest(tls = true)
class InterProcessReadWriteLockOverTlsTest extends InterProcessReadWriteLockTest {
    private static final Duration ACL_WAIT = Duration.ofSeconds(20);

    @Test
    void anotherIdentityCanNeitherDeleteAReadersNodeNorTakeTheWriteLock(BatonClient owner) throws InterruptedException {
        InterProcessReadWriteLock rw = new InterProcessReadWriteLock(owner, "/tls-acl/rw");
        assertThat(rw.readLock().acquire(ACL_WAIT)).isTrue();
        try (BatonClient intruder = TestSecurity.client("intruder")) {
            assertThat(TestSecurity.assertEveryNodeRefused(owner, intruder, "/tls-acl")).isGreaterThan(1);
            TestSecurity.refused(() -> new InterProcessReadWriteLock(intruder, "/tls-acl/rw").writeLock().acquire(ACL_WAIT));
            TestSecurity.refused(() -> new InterProcessReadWriteLock(intruder, "/tls-acl/rw").readLock().acquire(ACL_WAIT));
        }
        assertThat(rw.readLock().isAcquiredInThisProcess()).as("still held").isTrue();
        rw.readLock().release();
    }
}
