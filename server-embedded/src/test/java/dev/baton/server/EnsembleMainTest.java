package dev.baton.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.client.ZKClientConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EnsembleMainTest {

    @Test
    void servesUntilAskedToStopThenShutsDownCleanly() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        CountDownLatch stop = new CountDownLatch(1);
        CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(() -> {
            try {
                return EnsembleMain.run(EnsembleMain.parse(new String[] {"--nodes", "3"}), out, System.err, stop);
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
    void withTlsServesTlsOnlyAndPrintsWhatAClientNeeds() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        CountDownLatch stop = new CountDownLatch(1);
        CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(() -> {
            try {
                return EnsembleMain.run(EnsembleMain.parse(new String[] {"--nodes", "1", "--tls", "--require-client-cert"}), out, System.err, stop);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        try {
            await().atMost(Duration.ofSeconds(60)).until(() -> bytes.toString(StandardCharsets.UTF_8).contains("serving") || exit.isDone());
            String printed = bytes.toString(StandardCharsets.UTF_8);
            assertThat(printed).contains("TLS only, client certificates required; clients need:");
            Map<String, String> exports = new HashMap<>();
            Matcher export = Pattern.compile("(?m)^  export (BATON_[A-Z_]+)=(\\S+)$").matcher(printed);
            while (export.find()) {
                exports.put(export.group(1), export.group(2));
            }
            assertThat(exports).as(printed).containsOnlyKeys("BATON_TLS_TRUSTSTORE", "BATON_TLS_TRUSTSTORE_PASSWORD",
                "BATON_TLS_KEYSTORE", "BATON_TLS_KEYSTORE_PASSWORD");
            String connect = printed.lines().filter(l -> l.startsWith("connect string: ")).findFirst().orElseThrow()
                .substring("connect string: ".length());

            ZKClientConfig tls = new ZKClientConfig();
            tls.setProperty(ZKClientConfig.SECURE_CLIENT, "true");
            tls.setProperty(ZKClientConfig.ZOOKEEPER_CLIENT_CNXN_SOCKET, "org.apache.zookeeper.ClientCnxnSocketNetty");
            tls.setProperty("zookeeper.ssl.trustStore.location", exports.get("BATON_TLS_TRUSTSTORE"));
            tls.setProperty("zookeeper.ssl.trustStore.password", exports.get("BATON_TLS_TRUSTSTORE_PASSWORD"));
            tls.setProperty("zookeeper.ssl.keyStore.location", exports.get("BATON_TLS_KEYSTORE"));
            tls.setProperty("zookeeper.ssl.keyStore.password", exports.get("BATON_TLS_KEYSTORE_PASSWORD"));
            CountDownLatch connected = new CountDownLatch(1);
            ZooKeeper zk = new ZooKeeper(connect, 10_000, event -> {
                if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
                    connected.countDown();
                }
            }, tls);
            try {
                assertThat(connected.await(30, TimeUnit.SECONDS)).as("connected over TLS to %s", connect).isTrue();
                assertThat(zk.exists("/", false)).isNotNull();
            } finally {
                zk.close();
            }
            // a plain four-letter word on the TLS-only port gets no answer
            assertThat(FourLetterWords.send(Integer.parseInt(connect.substring(connect.lastIndexOf(':') + 1)), "ruok",
                Duration.ofSeconds(10))).isEmpty();
        } finally {
            stop.countDown();
        }
        assertThat(exit.get(60, TimeUnit.SECONDS)).isZero();
    }

    @Test
    void aFailedStartStopsTheServersItStartedFreesTheFolderAndSaysWhy(@TempDir Path dir) throws Exception {
        Path data = dir.resolve("zk");
        Set<Thread> before = serverThreads();
        ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
        ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
        // the servers start, but are given 1 ms to serve: start() fails with three servers running
        EnsembleMain.Options options = new EnsembleMain.Options(
            EmbeddedEnsemble.builder().nodes(3).dataDir(data).startTimeout(Duration.ofMillis(1)), false, false);

        int exit = EnsembleMain.run(options, new PrintStream(outBytes, true, StandardCharsets.UTF_8),
            new PrintStream(errBytes, true, StandardCharsets.UTF_8), new CountDownLatch(1));

        String err = errBytes.toString(StandardCharsets.UTF_8);
        assertThat(exit).as("exit code; stderr: %s", err).isEqualTo(70);
        assertThat(err).as("what the user is told").startsWith("error: start did not finish within PT0.001S");
        Set<Thread> left = serverThreads();
        left.removeAll(before);
        assertThat(left.stream().map(Thread::getName).toList()).as("server threads still running after the failed start").isEmpty();
        // the same command line can be run again at once: the folder's lock and the servers' ports are free
        try (EmbeddedEnsemble again = EmbeddedEnsemble.builder().nodes(3).dataDir(data).build()) {
            again.start();
            assertThat(again.leaderId()).isBetween(1, 3);
        }
    }

    private static Set<Thread> serverThreads() {
        Set<Thread> threads = new java.util.HashSet<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.isAlive() && t.getThreadGroup() != null && t.getThreadGroup().getName().startsWith("baton-ensemble")) {
                threads.add(t);
            }
        }
        return threads;
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
        assertThat(EnsembleMain.parse(new String[] {"--tls", "--require-client-cert"}).tls()).isTrue();
        assertThatThrownBy(() -> EnsembleMain.parse(new String[] {"--require-client-cert"}))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("--require-client-cert needs --tls");
        assertThatThrownBy(() -> EnsembleMain.parse(new String[] {"--bogus"}))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("unknown option '--bogus'");
    }
}
