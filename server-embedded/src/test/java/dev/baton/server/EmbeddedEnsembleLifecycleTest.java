package dev.baton.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Building, starting, restarting and closing ensembles, and the errors bad settings produce. */
class EmbeddedEnsembleLifecycleTest {

    @Test
    void closeLeavesNoThreadNoOpenPortAndNoTemporaryData() throws Exception {
        Set<Thread> before = liveThreads();
        EmbeddedEnsemble ensemble = EmbeddedEnsemble.builder().nodes(3).build();
        ensemble.start();
        try (ZooKeeper zk = ZooKeepers.connect(ensemble.connectString(), Duration.ofSeconds(10))) {
            zk.create("/x", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        }
        Path data = ensemble.dataDir();
        List<Integer> ports = ensemble.ports();
        assertThat(ports).hasSize(9);

        ensemble.close();

        Set<Thread> leftover = new HashSet<>(liveThreads());
        leftover.removeAll(before);
        // the test's own ZooKeeper client threads are daemons that may still be winding down
        assertThat(leftover.stream().filter(t -> !t.isDaemon()).map(Thread::getName).collect(Collectors.toList()))
            .as("non-daemon threads left by close()").isEmpty();
        assertThat(leftover.stream().filter(t -> t.getThreadGroup() != null
                && t.getThreadGroup().getName().startsWith("baton-ensemble")).map(Thread::getName).toList())
            .as("server threads left by close()").isEmpty();
        for (int port : ports) {
            assertThat(bindable(port)).as("port %d free after close", port).isTrue();
        }
        assertThat(data).doesNotExist();
    }

    @Test
    void standaloneRestartKeepsDataAndCallerChosenDataDirSurvivesClose(@TempDir Path dir) throws Exception {
        Path dataDir = dir.resolve("zk");
        try (EmbeddedEnsemble ensemble = EmbeddedEnsemble.builder().dataDir(dataDir).build()) {
            ensemble.start();
            assertThat(ensemble.size()).isEqualTo(1);
            assertThat(ensemble.leaderId()).isEqualTo(1);
            assertThat(ensemble.role(1)).isEqualTo(ServerRole.STANDALONE);
            try (ZooKeeper zk = ZooKeepers.connect(ensemble.connectString(), Duration.ofSeconds(10))) {
                zk.create("/kept", "v".getBytes(), ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
            }
            ensemble.restart(1);
            try (ZooKeeper zk = ZooKeepers.connect(ensemble.connectString(), Duration.ofSeconds(10))) {
                assertThat(zk.getData("/kept", false, null)).isEqualTo("v".getBytes());
            }
        }
        assertThat(dataDir.resolve("node-1")).isDirectory();
    }

    @Test
    void embeddedServersAcceptTtlAndContainerNodes() throws Exception {
        try (EmbeddedEnsemble ensemble = EmbeddedEnsemble.builder().build()) {
            ensemble.start();
            try (ZooKeeper zk = ZooKeepers.connect(ensemble.connectString(), Duration.ofSeconds(10))) {
                zk.create("/ttl", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT_WITH_TTL, null, 60_000);
                zk.create("/container", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.CONTAINER);
                assertThat(zk.exists("/ttl", false)).isNotNull();
                assertThat(zk.exists("/container", false)).isNotNull();
            }
        }
    }

    @Test
    void fourLetterWordsAreAnswered() throws Exception {
        try (EmbeddedEnsemble ensemble = EmbeddedEnsemble.builder().build()) {
            ensemble.start();
            int port = ensemble.clientPort(1);
            assertThat(dev.baton.server.FourLetterWords.send(port, "ruok", Duration.ofSeconds(5))).isEqualTo("imok");
            for (String word : List.of("mntr", "srvr", "stat", "cons")) {
                assertThat(dev.baton.server.FourLetterWords.send(port, word, Duration.ofSeconds(5)))
                    .as(word).doesNotContain("is not executed because it is not in the whitelist").isNotBlank();
            }
        }
    }

    @Test
    void nodeCountBelowOneIsRejected() {
        assertThatThrownBy(() -> EmbeddedEnsemble.builder().nodes(0))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("nodes must be at least 1, was 0");
    }

    @Test
    void unwritableDataDirIsRejectedAtBuild(@TempDir Path dir) throws IOException {
        Path readOnly = dir.resolve("ro");
        Files.createDirectory(readOnly, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("r-xr-xr-x")));
        Path target = readOnly.resolve("data");
        EmbeddedEnsemble.Builder builder = EmbeddedEnsemble.builder().dataDir(target);
        if (Files.isWritable(readOnly)) {
            return; // running as a user who can write anywhere: the permission cannot be tested here
        }
        assertThatThrownBy(builder::build)
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("dataDir " + target);
    }

    @Test
    void dataDirThatIsAFileIsRejectedAtBuild(@TempDir Path dir) throws IOException {
        Path file = Files.createFile(dir.resolve("not-a-folder"));
        assertThatThrownBy(() -> EmbeddedEnsemble.builder().dataDir(file).build())
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("dataDir " + file + " is a file, not a folder");
    }

    @Test
    void aDataDirAnotherEnsembleRunsOnIsRefusedUntilThatOneCloses(@TempDir Path dir) throws Exception {
        Path data = dir.resolve("zk");
        try (EmbeddedEnsemble first = EmbeddedEnsemble.builder().dataDir(data).build()) {
            first.start();
            // two ensembles on one folder write one transaction log: the first one's writes were lost
            assertThatThrownBy(() -> EmbeddedEnsemble.builder().dataDir(data).build().close())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("dataDir " + data + " is in use by another running ensemble");
        }
        try (EmbeddedEnsemble again = EmbeddedEnsemble.builder().dataDir(data).build()) {
            assertThat(again.dataDir()).as("free once the first ensemble closed").isEqualTo(data);
        }
    }

    @Test
    void takenPortIsRejectedAtBuildNamingThePort() throws IOException {
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            int port = taken.getLocalPort();
            assertThatThrownBy(() -> EmbeddedEnsemble.builder().clientPort(port).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("port " + port + " is already in use on 127.0.0.1")
                // what a program tells a taken port by (baton server falls back to free ports on it)
                .hasCauseInstanceOf(BindException.class);
        }
    }

    @Test
    void portHeldByAnotherEnsembleIsRejected() {
        try (EmbeddedEnsemble first = EmbeddedEnsemble.builder().build()) {
            int port = first.clientPort(1);
            assertThatThrownBy(() -> EmbeddedEnsemble.builder().clientPort(port).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("port " + port + " is already reserved by another embedded ensemble")
                .hasCauseInstanceOf(BindException.class);
        }
    }

    @Test
    void sessionBoundsAreChecked() {
        assertThatThrownBy(() -> EmbeddedEnsemble.builder().sessionTimeoutBounds(Duration.ofSeconds(5), Duration.ofSeconds(1)))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("minSessionTimeout PT5S is larger than maxSessionTimeout PT1S");
        assertThatThrownBy(() -> EmbeddedEnsemble.builder().tickTime(Duration.ZERO))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("tickTime must be positive, was PT0S");
    }

    @Test
    void closedEnsembleRefusesControl() {
        EmbeddedEnsemble ensemble = EmbeddedEnsemble.builder().build();
        ensemble.close();
        assertThatThrownBy(ensemble::start).isInstanceOf(IllegalStateException.class).hasMessageContaining("is closed");
    }

    private static Set<Thread> liveThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).collect(Collectors.toSet());
    }

    private static boolean bindable(int port) {
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
