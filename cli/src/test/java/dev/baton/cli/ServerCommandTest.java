package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.baton.server.EmbeddedEnsemble;
import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code baton server} as a first-time user runs it: where it listens, the line it prints to
 * copy, and that the next command, as typed, reaches it. One standalone server each (three prove
 * nothing more here); no test needs port 2181 to be free.
 */
class ServerCommandTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    /** ZooKeeper's usual client port, where every other subcommand looks by default. */
    private static final int ZOOKEEPER_PORT = 2181;
    private static final Pattern EXPORT = Pattern.compile("(?m)^  export BATON_CONNECT=(\\S+)$");

    @TempDir
    Path dir;

    /** Starts {@code baton server} and waits until it serves; its printed BATON_CONNECT value. */
    private String serving(BatonProcess server) throws Exception {
        await().atMost(WAIT).until(() -> server.stdout().contains("serving; Ctrl-C to stop") || !server.isAlive());
        assertThat(server.isAlive()).as("serving; stderr: %s", server.stderr()).isTrue();
        Matcher export = EXPORT.matcher(server.stdout());
        assertThat(export.find()).as("the line to copy in: %s", server.stdout()).isTrue();
        return export.group(1);
    }

    /** Runs {@code baton ls /} with {@code env}: what a user types next. */
    private BatonProcess ls(Map<String, String> env) throws Exception {
        BatonProcess ls = BatonProcess.start(dir, env, "ls", "/");
        assertThat(ls.finish(WAIT)).as("stderr: %s", ls.stderr()).isZero();
        return ls;
    }

    private static ServerSocket bind(int port) throws IOException {
        ServerSocket socket = new ServerSocket();
        socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        return socket;
    }

    private static boolean free(int port) {
        try (ServerSocket socket = bind(port)) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    @Test
    void portZeroServesOnFreePortsAndPrintsTheLineTheNextCommandUses() throws Exception {
        try (BatonProcess server = BatonProcess.start(dir, Map.of(), "server", "--nodes", "1", "--port", "0")) {
            String connect = serving(server);
            assertThat(connect).matches("127\\.0\\.0\\.1:\\d+");
            assertThat(ls(Map.of("BATON_CONNECT", connect)).stdout()).contains("zookeeper");
            server.signal("TERM");
            assertThat(server.exitCode(WAIT)).as("stopped by SIGTERM: 128 + 15").isEqualTo(143);
            assertThat(server.stdout()).endsWith("stopped\n");
        }
    }

    @Test
    void byDefaultItServesOn2181WhereTheOtherCommandsLook() throws Exception {
        assumeTrue(free(ZOOKEEPER_PORT), "port 2181 is taken on this machine: the next test covers that case");
        try (BatonProcess server = BatonProcess.start(dir, Map.of(), "server", "--nodes", "1")) {
            assertThat(serving(server)).isEqualTo("127.0.0.1:2181");
            assertThat(ls(Map.of()).stdout()).as("ls with neither -s nor BATON_CONNECT").contains("zookeeper");
        }
    }

    @Test
    void with2181TakenItServesOnFreePortsAndSaysWhereToPointTheOtherCommands() throws Exception {
        ServerSocket taken = null;
        try {
            taken = bind(ZOOKEEPER_PORT);
        } catch (BindException alreadyTaken) {
            // taken by another process: the case under test all the same
        }
        try (BatonProcess server = BatonProcess.start(dir, Map.of(), "server", "--nodes", "1")) {
            String connect = serving(server);
            assertThat(connect).isNotEqualTo("127.0.0.1:2181");
            assertThat(server.stdout()).contains("port 2181 is in use, so the servers listen on free ports");
            assertThat(ls(Map.of("BATON_CONNECT", connect)).stdout()).contains("zookeeper");
        } finally {
            if (taken != null) {
                taken.close();
            }
        }
    }

    @Test
    void aDataDirAnotherServerRunsOnIsAUsageErrorNamingTheFolder() throws Exception {
        Path data = dir.resolve("zk");
        try (BatonProcess first = BatonProcess.start(dir, Map.of(), "server", "--nodes", "1", "--port", "0", "--data-dir", data.toString())) {
            serving(first);
            // a second one on the same folder wrote the same transaction log: the first one's writes were lost
            BatonProcess second = BatonProcess.start(dir, Map.of(), "server", "--nodes", "1", "--port", "0", "--data-dir", data.toString());
            assertThat(second.finish(Duration.ofSeconds(20))).as("stdout: %s stderr: %s", second.stdout(), second.stderr())
                .isEqualTo(ExitCodes.USAGE);
            assertThat(second.stderr()).startsWith("baton: --data-dir " + data + " is in use by another running ensemble");
        }
    }

    @Test
    void aServerCountOutsideOneToNineIsAUsageErrorInTheOptionsWords() throws Exception {
        BatonProcess server = BatonProcess.start(dir, Map.of(), "server", "--nodes", "0", "--port", "0");
        assertThat(server.finish(WAIT)).isEqualTo(ExitCodes.USAGE);
        assertThat(server.stderr()).isEqualTo("baton: --nodes must be 1 to 9 (1 runs a standalone server, 3 or 5 a quorum), was 0\n");
    }

    @Test
    void aPortAlreadyInUseIsExit70NamingIt() throws Exception {
        try (ServerSocket taken = bind(0)) {
            int port = taken.getLocalPort();
            BatonProcess server = BatonProcess.start(dir, Map.of(), "server", "--nodes", "1", "--port", Integer.toString(port));
            assertThat(server.finish(WAIT)).as("stderr: %s", server.stderr()).isEqualTo(ExitCodes.SOFTWARE);
            assertThat(server.stderr()).startsWith("baton: port " + port + " is already in use");
        }
    }

    @Test
    void aPortReservedByAnotherEmbeddedEnsembleIsExit70NamingIt() throws Exception {
        // built, not started: nothing listens on its port yet, but the port is that ensemble's (in any JVM)
        try (EmbeddedEnsemble reserving = EmbeddedEnsemble.builder().build()) {
            int port = reserving.clientPort(1);
            BatonProcess server = BatonProcess.start(dir, Map.of(), "server", "--nodes", "1", "--port", Integer.toString(port));
            assertThat(server.finish(WAIT)).as("stderr: %s", server.stderr()).isEqualTo(ExitCodes.SOFTWARE);
            assertThat(server.stderr()).isEqualTo("baton: port " + port + " is already reserved by another embedded ensemble\n");
        }
    }
}
