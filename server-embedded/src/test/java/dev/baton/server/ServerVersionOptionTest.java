package dev.baton.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How {@code serverVersion} fails before any server starts. Running another release for real is
 * the compat module's job (it has the jars Maven resolved: {@code ServerVersionTest} there).
 */
class ServerVersionOptionTest {
    private static final String PROPERTY = "baton.zookeeper.jars";

    @Test
    void missingJarsNameTheVersionAndEveryFolderSearched(@TempDir Path root) throws IOException {
        Path empty = Files.createDirectory(root.resolve("empty"));
        String before = System.getProperty(PROPERTY);
        System.setProperty(PROPERTY, root.resolve("nowhere") + java.io.File.pathSeparator + empty);
        try {
            EmbeddedEnsemble.Builder builder = EmbeddedEnsemble.builder().mode(ServerMode.CHILD_PROCESSES).serverVersion("3.8.6");
            assertThatThrownBy(builder::build)
                .isInstanceOfSatisfying(MissingServerJarsException.class, e -> {
                    assertThat(e.version()).isEqualTo("3.8.6");
                    assertThat(e.searched()).containsExactly(
                        root.resolve("nowhere").resolve("zookeeper-3.8.6").toAbsolutePath(),
                        empty.resolve("zookeeper-3.8.6").toAbsolutePath());
                })
                .hasMessageContaining("ZooKeeper server 3.8.6")
                .hasMessageContaining("zookeeper-3.8.6.jar not found")
                .hasMessageContaining(empty.resolve("zookeeper-3.8.6").toAbsolutePath().toString())
                .hasMessageContaining(PROPERTY);
        } finally {
            if (before == null) {
                System.clearProperty(PROPERTY);
            } else {
                System.setProperty(PROPERTY, before);
            }
        }
    }

    @Test
    void unsetPropertySaysSo() {
        org.junit.jupiter.api.Assumptions.assumeTrue(System.getProperty(PROPERTY) == null, "run without " + PROPERTY);
        assertThatThrownBy(EmbeddedEnsemble.builder().mode(ServerMode.CHILD_PROCESSES).serverVersion("3.8.3")::build)
            .isInstanceOf(MissingServerJarsException.class)
            .hasMessageContaining("ZooKeeper server 3.8.3")
            .hasMessageContaining("the system property " + PROPERTY + " is not set");
    }

    @Test
    void anExplicitFolderWithoutTheServerJarIsRefused(@TempDir Path folder) {
        assertThatThrownBy(EmbeddedEnsemble.builder().mode(ServerMode.CHILD_PROCESSES).serverVersion("3.9.0", folder)::build)
            .isInstanceOf(MissingServerJarsException.class)
            .hasMessage("no jars for ZooKeeper server 3.9.0: zookeeper-3.9.0.jar not found in " + folder.toAbsolutePath());
    }

    @Test
    void anotherReleaseNeedsChildProcesses(@TempDir Path folder) {
        assertThatThrownBy(EmbeddedEnsemble.builder().serverVersion("3.8.6", folder)::build)
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("serverVersion(\"3.8.6\") needs mode(ServerMode.CHILD_PROCESSES)")
            .hasMessageContaining("mode is IN_PROCESS");
    }

    @Test
    void aChildNeedsSomethingOnItsClassPath() {
        assertThatThrownBy(() -> ChildJvm.builder("org.apache.zookeeper.server.quorum.QuorumPeerMain").classPath(java.util.List.of()))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("a child's class path needs at least one jar or folder, was empty");
    }

    @Test
    void aVersionMustBeAReleaseNumber() {
        assertThatThrownBy(() -> EmbeddedEnsemble.builder().serverVersion("3.8"))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("serverVersion must be a ZooKeeper release such as 3.8.6, was '3.8'");
        assertThat(EmbeddedEnsemble.builder().serverVersion("3.9.0-rc1")).isNotNull();
    }
}
