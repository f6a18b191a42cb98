package dev.baton.server.internal;

import dev.baton.server.FourLetterWords;
import dev.baton.server.ServerRole;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One server as a child JVM running ZooKeeper's own {@code QuorumPeerMain} with a generated
 * {@code zoo.cfg} — so a test can kill it with SIGKILL, or freeze it with SIGSTOP to imitate a
 * long garbage-collection pause or a hung machine, which an in-process server cannot do.
 *
 * <p>The child runs on this JVM's class path and Java; its output goes to {@code server.log} in
 * its data folder. Its role is read with the {@code srvr} four-letter word.
 */
public final class ProcessNode implements ServerNode {
    private static final Duration PROBE_TIMEOUT = Duration.ofMillis(500);
    private static final Duration START_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);

    private final NodeSpec spec;
    private final PeerView view;
    private final ServerSettings settings;
    private Process process;
    private boolean paused;

    public ProcessNode(NodeSpec spec, PeerView view, ServerSettings settings) {
        this.spec = spec;
        this.view = view;
        this.settings = settings;
    }

    @Override
    public NodeSpec spec() {
        return spec;
    }

    @Override
    public synchronized void start() throws IOException {
        if (process != null && process.isAlive()) {
            return;
        }
        Path config = writeConfig();
        Path logConfig = writeLogConfig();
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx256m");
        command.add("-XX:+UseSerialGC");
        command.add("-XX:TieredStopAtLevel=1");
        command.add("-Djava.net.preferIPv4Stack=true");
        command.add("-Dlogback.configurationFile=" + logConfig);
        command.add("-Dzookeeper.forceSync=" + (settings.forceSync() ? "yes" : "no"));
        for (Map.Entry<String, String> property : ServerJvmSettings.PROPERTIES.entrySet()) {
            command.add("-D" + property.getKey() + "=" + property.getValue());
        }
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add("org.apache.zookeeper.server.quorum.QuorumPeerMain");
        command.add(config.toString());
        File log = spec.dataDir().resolve("server.log").toFile();
        process = new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log))
            .start();
        paused = false;
        awaitListening();
    }

    private void awaitListening() throws IOException {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() - deadline < 0) {
            if (!process.isAlive()) {
                throw new IOException("server " + spec.id() + " exited with code " + process.exitValue()
                    + "; see " + spec.dataDir().resolve("server.log"));
            }
            try {
                if ("imok".equals(FourLetterWords.send(spec.clientPort(), "ruok", PROBE_TIMEOUT))) {
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
        if (process == null) {
            return;
        }
        if (paused) {
            signal("CONT");
            paused = false;
        }
        if (forcibly) {
            process.destroyForcibly();
        } else {
            process.destroy();
        }
        try {
            if (!process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        process = null;
    }

    /** Freezes the server (SIGSTOP): its sockets stay open but it answers nothing. */
    public synchronized void pause() {
        if (process == null || !process.isAlive()) {
            throw new IllegalStateException("server " + spec.id() + " is not running, so it cannot be paused");
        }
        signal("STOP");
        paused = true;
    }

    /** Thaws a paused server (SIGCONT). */
    public synchronized void resume() {
        if (paused && process != null) {
            signal("CONT");
        }
        paused = false;
    }

    @Override
    public synchronized ServerRole role() {
        if (process == null || !process.isAlive()) {
            return ServerRole.STOPPED;
        }
        if (paused) {
            return ServerRole.PAUSED;
        }
        try {
            String mode = FourLetterWords.mode(FourLetterWords.send(spec.clientPort(), "srvr", PROBE_TIMEOUT));
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

    /** The child's process id, while it runs. */
    public synchronized long pid() {
        if (process == null) {
            throw new IllegalStateException("server " + spec.id() + " is not running");
        }
        return process.pid();
    }

    private void signal(String name) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).start();
            if (!kill.waitFor(5, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new IllegalStateException("kill -" + name + " " + process.pid() + " failed");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run kill -" + name, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while signalling server " + spec.id(), e);
        }
    }

    private Path writeConfig() throws IOException {
        List<String> lines = new ArrayList<>();
        lines.add("tickTime=" + settings.tickMillis());
        lines.add("initLimit=" + settings.initLimit());
        lines.add("syncLimit=" + settings.syncLimit());
        lines.add("dataDir=" + spec.dataDir().toAbsolutePath());
        lines.add("clientPort=" + spec.clientPort());
        lines.add("clientPortAddress=127.0.0.1");
        lines.add("minSessionTimeout=" + settings.minSessionTimeout().toMillis());
        lines.add("maxSessionTimeout=" + settings.maxSessionTimeout().toMillis());
        lines.add("maxClientCnxns=" + settings.maxClientConnections());
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
