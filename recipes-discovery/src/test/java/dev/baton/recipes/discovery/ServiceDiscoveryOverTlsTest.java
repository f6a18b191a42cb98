package dev.baton.recipes.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.framework.BatonClient;
import dev.baton.test.EnsembleTest;
import dev.baton.test.TestSecurity;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@link ServiceDiscoveryTest} again over TLS: the servers serve TLS only and require client certificates,
 * every client is {@code x509:CN=recipes} and makes its nodes with {@code CREATOR_ALL}
 * ({@code @EnsembleTest(tls = true)}, test-support's {@code TestSecurity}). A client of another identity can neither list,
 * read, change nor delete an instance. Runs with
 * {@code -Ptls} (docs/security.md).
 */
@Tag("tls")
@EnsembleTest(tls = true)
class ServiceDiscoveryOverTlsTest extends ServiceDiscoveryTest {
    @Test
    void anotherIdentityCanNeitherListNorDeleteNorChangeAnInstance(BatonClient owner) throws Exception {
        ServiceInstance<Void> instance = ServiceInstance.<Void>builder().name("orders").address("127.0.0.1").port(8080).build();
        try (ServiceDiscovery<Void> discovery = ServiceDiscoveryBuilder.builder(Void.class).client(owner)
                 .basePath("/tls-acl/services").thisInstance(instance).build()) {
            discovery.start();
            try (BatonClient intruder = TestSecurity.client("intruder")) {
                assertThat(TestSecurity.assertEveryNodeRefused(owner, intruder, "/tls-acl")).isGreaterThan(3);
            }
            assertThat(discovery.queryForInstances("orders")).extracting(ServiceInstance::port).containsExactly(8080);
        }
    }
}
