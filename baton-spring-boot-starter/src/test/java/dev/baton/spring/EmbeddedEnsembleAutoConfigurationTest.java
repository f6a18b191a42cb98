package dev.baton.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ConnectionState;
import dev.baton.server.EmbeddedEnsemble;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** {@code baton.embedded.enabled=true}: a server in the JVM, the client on it, both gone with the context. */
class EmbeddedEnsembleAutoConfigurationTest {

    @Test
    void anEmbeddedEnsembleServesTheClientAndClosesAfterIt() {
        AtomicReference<BatonClient> client = new AtomicReference<>();
        AtomicReference<Integer> port = new AtomicReference<>();
        new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(BatonAutoConfiguration.class))
            .withPropertyValues("baton.embedded.enabled=true", "baton.connect-string=ignored.invalid:1", "baton.startup-timeout=20s")
            .run(context -> {
                assertThat(context).hasNotFailed().hasSingleBean(EmbeddedEnsemble.class);
                EmbeddedEnsemble ensemble = context.getBean(EmbeddedEnsemble.class);
                client.set(context.getBean(BatonClient.class));
                port.set(ensemble.clientPort(1));
                assertThat(client.get().connectionState()).isEqualTo(ConnectionState.CONNECTED);
                client.get().create().forPath("/hello", new byte[] {1});
                assertThat(client.get().getData().forPath("/hello")).containsExactly(1);
            });
        assertThat(client.get().isClosed()).isTrue();
        assertThatThrownBy(() -> {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port.get()), 2000);
            }
        }).as("the server stopped with the context").isInstanceOf(IOException.class);
    }
}
