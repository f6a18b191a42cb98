package dev.baton.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;

class EnsembleMainTest {

    @Test
    void servesUntilAskedToStopThenShutsDownCleanly() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        CountDownLatch stop = new CountDownLatch(1);
        CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(() -> {
            try {
                return EnsembleMain.run(EnsembleMain.parse(new String[] {"--nodes", "3"}), out, stop);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        await().atMost(Duration.ofSeconds(30)).until(() -> bytes.toString(StandardCharsets.UTF_8).contains("serving"));
        String printed = bytes.toString(StandardCharsets.UTF_8);
        String connect = printed.lines().filter(l -> l.startsWith("connect string: ")).findFirst().orElseThrow()
            .substring("connect string: ".length());
        assertThat(connect.split(",")).hasSize(3);
        assertThat(printed).containsPattern("servers: 3, leader: server [123]");
        try (ZooKeeper zk = ZooKeepers.connect(connect, Duration.ofSeconds(10))) {
            assertThat(zk.exists("/", false)).isNotNull();
        }

        stop.countDown();
        assertThat(exit.get(30, TimeUnit.SECONDS)).isZero();
        assertThat(bytes.toString(StandardCharsets.UTF_8)).endsWith("stopped" + System.lineSeparator());
    }

    @Test
    void parsesEveryOptionAndRejectsUnknownOnesByName() {
        assertThat(EnsembleMain.parse(new String[] {"--help"})).isNull();
        assertThat(EnsembleMain.parse(new String[] {"--nodes", "1", "--durable"})).isNotNull();
        assertThatThrownBy(() -> EnsembleMain.parse(new String[] {"--nodes", "three"}))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("--nodes expects a whole number, was 'three'");
        assertThatThrownBy(() -> EnsembleMain.parse(new String[] {"--port"}))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("--port needs a value");
        assertThatThrownBy(() -> EnsembleMain.parse(new String[] {"--bogus"}))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("unknown option '--bogus'");
    }
}
