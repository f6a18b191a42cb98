package dev.baton.framework;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

/** A client that cannot reach any server fails each operation with a public, documented exception type. */
class NoConnectionTest {

    @Test
    void anOperationWithoutAConnectionFailsWithThePublicNoConnectionException() throws Exception {
        try (BatonClient client = BatonClient.builder()
                .connectString("127.0.0.1:" + portWhereNothingListens())
                .connectionTimeout(Duration.ofMillis(300))
                .build()) {
            client.start();
            Throwable blocking = org.assertj.core.api.Assertions.catchThrowable(() -> client.getData().forPath("/app"));
            assertThat(blocking).isInstanceOf(NoConnectionException.class).isInstanceOf(ConnectionLossException.class)
                .hasMessage("getData /app: no connection to the ensemble within PT0.3S");
            assertThat(blocking.getClass().getName()).as("the type a caller catches is public API, not internal")
                .isEqualTo("dev.baton.framework.NoConnectionException");
            assertThat(((NoConnectionException) blocking).waited()).isEqualTo(Duration.ofMillis(300));

            assertThatThrownBy(() -> client.create().forPathAsync("/app").get())
                .isInstanceOf(ExecutionException.class).cause().isInstanceOf(NoConnectionException.class);
        }
    }

    private static int portWhereNothingListens() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
