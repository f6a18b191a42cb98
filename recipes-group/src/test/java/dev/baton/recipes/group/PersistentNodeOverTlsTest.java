package dev.baton.recipes.group;

import dev.baton.test.EnsembleTest;
import org.junit.jupiter.api.Tag;

/**
 * {@link PersistentNodeTest} again over TLS: the servers serve TLS only and require client certificates,
 * every client is {@code x509:CN=recipes} and makes its nodes with {@code CREATOR_ALL}
 * ({@code @EnsembleTest(tls = true)}, test-support's {@code TestSecurity}). Runs with
 * {@code -Ptls} (docs/security.md).
 */
@Tag("tls")
@EnsembleTest(tls = true)
class PersistentNodeOverTlsTest extends PersistentNodeTest {
}
