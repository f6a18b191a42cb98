package dev.baton.recipes.lock;

import dev.baton.test.EnsembleTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@link InterProcessMutexContractTest} again over TLS: the servers serve TLS only and require client certificates,
 * every client is {@code x509:CN=recipes} and makes its nodes with {@code CREATOR_ALL}
 * ({@code @EnsembleTest(tls = true)}, test-support's {@code TestSecurity}). A client of another identity can neither
 * list the lock, nor delete the holder's nodes, nor take the lock. Runs with
 * {@code -Ptls} (docs/security.md).
 */
@Tag("tls")
@EnsembleTest(tls = true)
class InterProcessMutexContractOverTlsTest extends InterProcessMutexContractTest {
    @Test
    void anotherIdentityCanNeitherDeleteTheHoldersNodeNorTakeTheLock() throws InterruptedException {
        anotherIdentityIsRefusedWhileHeld();
    }
}
