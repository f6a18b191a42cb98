package dev.baton.server.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The proxy between servers, where a direct connection would have been refused: a leader binds
 * its quorum port only once elected, and a follower that dials it a moment before must not see
 * its connection accepted and then closed mid-handshake (it would give that leader up, and the
 * leader would wait out initLimit for a quorum: about 12 s to heal a killed leader).
 */
class TcpProxyTest {
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    @Test
    void aConnectionMadeBeforeItsTargetListensIsForwardedOnceItDoes() throws Exception {
        int port;
        try (ServerSocket probe = new ServerSocket(0, 50, LOOPBACK)) {
            port = probe.getLocalPort(); // free, and nothing listens on it once the probe closes
        }
        ScheduledExecutorService later = Executors.newSingleThreadScheduledExecutor();
        try (TcpProxy proxy = TcpProxy.start(new InetSocketAddress(LOOPBACK, port), 0, "test-quorum", Duration.ofSeconds(5));
             Socket peer = new Socket(LOOPBACK, proxy.port())) {
            peer.getOutputStream().write("hello".getBytes(StandardCharsets.UTF_8));
            peer.getOutputStream().flush();
            // the scenario: the target starts listening 300 ms after the peer connected
            CompletableFuture<String> heard = new CompletableFuture<>();
            later.schedule(() -> serveOnce(port, heard), 300, TimeUnit.MILLISECONDS);

            assertThat(heard.get(10, TimeUnit.SECONDS)).as("what the target read from the early connection").isEqualTo("hello");
            peer.setSoTimeout(10_000);
            assertThat(readFive(peer.getInputStream())).as("the target's answer, back through the proxy").isEqualTo("world");
        } finally {
            later.shutdownNow();
        }
    }

    @Test
    void withoutAWaitAConnectionToATargetThatDoesNotListenIsClosed() throws Exception {
        int port;
        try (ServerSocket probe = new ServerSocket(0, 50, LOOPBACK)) {
            port = probe.getLocalPort();
        }
        try (TcpProxy proxy = TcpProxy.start(new InetSocketAddress(LOOPBACK, port), 0, "test-client");
             Socket client = new Socket(LOOPBACK, proxy.port())) {
            client.setSoTimeout(10_000);
            assertThat(client.getInputStream().read()).as("end of stream: the proxy closed the connection").isEqualTo(-1);
        }
    }

    private static void serveOnce(int port, CompletableFuture<String> heard) {
        try (ServerSocket target = new ServerSocket()) {
            target.setReuseAddress(true);
            target.bind(new InetSocketAddress(LOOPBACK, port));
            target.setSoTimeout(10_000);
            try (Socket accepted = target.accept()) {
                accepted.setSoTimeout(10_000);
                String read = readFive(accepted.getInputStream());
                accepted.getOutputStream().write("world".getBytes(StandardCharsets.UTF_8));
                accepted.getOutputStream().flush();
                heard.complete(read);
                // keep the connection open until the peer has read the answer
                accepted.getInputStream().read();
            }
        } catch (IOException e) {
            heard.completeExceptionally(e);
        }
    }

    private static String readFive(InputStream in) throws IOException {
        byte[] five = in.readNBytes(5);
        return new String(five, StandardCharsets.UTF_8);
    }
}
