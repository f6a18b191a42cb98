package dev.baton.recipes.lock;

import dev.baton.test.EnsembleTest;
import org.junit.jupiter.api.Test;

/**
 * {@link InterProcessMutexContractTest} again over TLS: the servers require client certificates, every client
 * is {@code x509:CN=recipes} and makes its nodes with {@code CREATOR_ALL}; and a client of another
 * identity is refused (docs/security.md).
 */
@EnsembleTest(tls = true)
class InterProcessMutexContractOverTlsTest extends InterProcessMutexContractTest {
    @Test
    void anotherIdentityCanNeitherDeleteTheHoldersNodeNorTakeTheLock() throws InterruptedException {
        anotherIdentityIsRefusedWhileHeld();
    }
}
