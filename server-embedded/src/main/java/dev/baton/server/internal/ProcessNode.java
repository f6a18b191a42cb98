package dev.baton.server.internal;

import dev.baton.server.ChildJvm;
import dev.baton.server.FourLetterWords;
import dev.baton.server.ServerRole;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One server as a child JVM running ZooKeeper's own {@code QuorumPeerMain} with a generated
 * {@code zoo.cfg} — so a test can kill it with SIGKILL, or freeze it with SIGSTOP to imitate a
 * long garbage-collection pause or a hung machine, which an in-process server cannot do. It runs
 * under {@link ExitWithParent}, so it halts when this JVM dies, even by SIGKILL.
 *
 * <p>The child is a {@link ChildJvm} (this JVM's Java, and its class path unless the ensemble
 * asked for another ZooKeeper release: then that release's jars); its output goes to
 * {@code server.log} in its data folder. Its role is read with the {@code srvr} four-letter word.
 */
public final class ProcessNode implements ServerNode {
    private static final Duration PROBE_TIMEOUT = Duration.ofMillis(500);
    private static final Duration START_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);
    private static final String QUORUM_PEER_MAIN = "org.apache.zookeeper.server.quorum.QuorumPeerMain";

    private final NodeSpec spec;
    private final PeerView view;
    private final ServerSettings settings;
    /** The jars of the ZooKeeper release to run, or null for this JVM's class path. */
    private final List<Path> serverJars;
    private final ServerSecurity security;
    private ChildJvm jvm;

    public ProcessNode(NodeSpec spec, PeerView view, ServerSettings settings) {
        this(spec, view, settings, null, ServerSecurity.NONE);
    }

    /**
     * A server of the ZooKeeper release in {@code serverJars} (see {@link ServerJars}; null runs
     * this JVM's own), with the TLS and authentication settings of {@code security}.
     */
    public ProcessNode(NodeSpec spec, PeerView view, ServerSettings settings, List<Path> serverJars, ServerSecurity security) {
        this.spec = spec;
        this.view = view;
        this.settings = settings;
        this.serverJars = serverJars;
        this.security = security;
    }

    @Override
    public NodeSpec spec() {
        return spec;
    }

    @Override
    public synchronized void start() throws IOException {
        if (jvm != null && jvm.isAlive()) {
            return;
        }
        Path config = writeConfig();
        Path logConfig = writeLogConfig();
        List<Path> classPath = new ArrayList<>();
        classPath.add(writeLauncher());
        classPath.addAll(serverJars != null ? serverJars : ownClassPath());
        ChildJvm.Builder child = ChildJvm.builder(ExitWithParent.class.getName())
            .classPath(classPath)
            .input(ProcessBuilder.Redirect.PIPE)  // held by this JVM alone: its end-of-file tells the server this JVM is gone
            .heap("256m")
            .systemProperty("logback.configurationFile", logConfig.toString())
            .systemProperty("zookeeper.forceSync", settings.forceSync() ? "yes" : "no");
        ServerJvmSettings.PROPERTIES.forEach(child::systemProperty);
        security.properties().forEach(child::systemProperty);
        jvm = child.args(List.of(QUORUM_PEER_MAIN, config.toString()))
            .errorToOutput()
            .output(ProcessBuilder.Redirect.appendTo(spec.dataDir().resolve("server.log").toFile()))
            .start();
        awaitListening();
    }

    private void awaitListening() throws IOException {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() - deadline < 0) {
            if (!jvm.isAlive()) {
                throw new IOException("server " + spec.id() + " exited with code " + jvm.process().exitValue()
                    + "; see " + spec.dataDir().resolve("server.log"));
            }
            try {
                if ("imok".equals(probe("ruok"))) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while server " + spec.id() + " started", e);
            }
        }
        throw new IOException("server " + spec.id() + " did not listen on port " + spec.clientPort() + " within " + START_TIMEOUT);
    }

    /** Stops the server with SIGTERM (SIGKILL if it does not exit within 10 s). */
    @Override
    public synchronized void stop() {
        end(false);
    }

    /** Kills the server with SIGKILL: no shutdown of any kind, like a power cut. */
    public synchronized void kill() {
        end(true);
    }

    private void end(boolean forcibly) {
        if (jvm == null) {
            return;
        }
        try {
            if (forcibly) {
                jvm.kill();
            } else {
                jvm.stop(STOP_TIMEOUT);
            }
        } catch (InterruptedException e) {
            // ServerNode.stop() cannot throw it: keep the interrupt for the caller to see
            Thread.currentThread().interrupt();
        }
        jvm = null;
    }

    /** Freezes the server (SIGSTOP): its sockets stay open but it answers nothing. */
    public synchronized void pause() {
        if (jvm == null || !jvm.isAlive()) {
            throw new IllegalStateException("server " + spec.id() + " is not running, so it cannot be paused");
        }
        jvm.pause();
    }

    /** Thaws a paused server (SIGCONT). */
    public synchronized void resume() {
        if (jvm != null) {
            jvm.resume();
        }
    }

    @Override
    public synchronized ServerRole role() {
        if (jvm == null || !jvm.isAlive()) {
            return ServerRole.STOPPED;
        }
        if (jvm.isPaused()) {
            return ServerRole.PAUSED;
        }
        try {
            String mode = FourLetterWords.mode(probe("srvr"));
            if (mode == null) {
                return ServerRole.LOOKING;
            }
            return switch (mode) {
                case "leader" -> ServerRole.LEADER;
                case "follower", "observer" -> ServerRole.FOLLOWER;
                case "standalone" -> ServerRole.STANDALONE;
                default -> ServerRole.LOOKING;
            };
        } catch (IOException e) {
            return ServerRole.LOOKING;
        }
    }

    private String probe(String word) throws IOException {
        return FourLetterWords.send(new InetSocketAddress(InetAddress.getLoopbackAddress(), spec.clientPort()), word,
            PROBE_TIMEOUT, security.probes());
    }

    /** The child's process id, while it runs. */
    public synchronized long pid() {
        if (jvm == null) {
            throw new IllegalStateException("server " + spec.id() + " is not running");
        }
        return jvm.pid();
    }

    private Path writeConfig() throws IOException {
        List<String> lines = new ArrayList<>();
        lines.add("tickTime=" + settings.tickMillis());
        lines.add("initLimit=" + settings.initLimit());
        lines.add("syncLimit=" + settings.syncLimit());
        lines.add("dataDir=" + spec.dataDir().toAbsolutePath());
        if (security.tls()) {
            // TLS only: no plain port beside it (the probes speak TLS too)
            lines.add("secureClientPort=" + spec.clientPort());
            lines.add("secureClientPortAddress=127.0.0.1");
        } else {
            lines.add("clientPort=" + spec.clientPort());
            lines.add("clientPortAddress=127.0.0.1");
        }
        lines.add("minSessionTimeout=" + settings.minSessionTimeout().toMillis());
        lines.add("maxSessionTimeout=" + settings.maxSessionTimeout().toMillis());
        lines.add("maxClientCnxns=" + settings.maxClientConnections());
        lines.add("localSessionsEnabled=" + settings.localSessions());
        lines.add("localSessionsUpgradingEnabled=" + settings.localSessions());
        lines.add("reconfigEnabled=false");
        if (view.replicated()) {
            lines.add("standaloneEnabled=false");
            view.serverLines().forEach((key, value) -> lines.add(key + "=" + value));
            Files.writeString(spec.dataDir().resolve("myid"), Integer.toString(spec.id()), StandardCharsets.US_ASCII);
        }
        Path config = spec.dataDir().resolve("zoo.cfg");
        Files.write(config, lines, StandardCharsets.UTF_8);
        return config;
    }

    /**
     * Copies {@link ExitWithParent}, one class file, into {@code launcher/} in the server's folder:
     * the folder to put first on the class path, beside this JVM's jars or another release's.
     */
    private Path writeLauncher() throws IOException {
        Path folder = spec.dataDir().resolve("launcher");
        String name = ExitWithParent.class.getName().replace('.', '/') + ".class";
        Path file = folder.resolve(name);
        Files.createDirectories(file.getParent());
        try (InputStream bytes = ExitWithParent.class.getClassLoader().getResourceAsStream(name)) {
            if (bytes == null) {
                throw new IOException("cannot read " + name + " from Baton's own class path");
            }
            Files.copy(bytes, file, StandardCopyOption.REPLACE_EXISTING);
        }
        return folder;
    }

    private static List<Path> ownClassPath() {
        return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
            .filter(entry -> !entry.isEmpty()).map(Path::of).toList();
    }

    private Path writeLogConfig() throws IOException {
        Path config = spec.dataDir().resolve("logback-server.xml");
        Files.writeString(config, """
            <configuration>
              <appender name="OUT" class="ch.qos.logback.core.ConsoleAppender">
                <encoder><pattern>%d{HH:mm:ss.SSS} [%thread] %-5level %logger{24} - %msg%n</pattern></encoder>
              </appender>
              <root level="WARN"><appender-ref ref="OUT"/></root>
            </configuration>
            """, StandardCharsets.UTF_8);
        return config;
    }
}
