package dev.baton.cli;

import dev.baton.server.EmbeddedEnsemble;
import dev.baton.server.EnsembleException;
import dev.baton.server.EnsembleMain;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code baton server}: a real ZooKeeper ensemble in the foreground, until Ctrl-C or SIGTERM.
 *
 * <p>It listens where every other subcommand looks by default ({@code 127.0.0.1:2181}), so the
 * next command works as typed. When 2181 is taken and no port was asked for, it takes free ports
 * instead and says so; either way it prints the {@code export BATON_CONNECT=...} line to copy.
 */
@Command(name = "server",
    description = {"Run a ZooKeeper ensemble in the foreground.",
        "Run ZooKeeper's own servers until Ctrl-C or SIGTERM. They listen on 127.0.0.1:2181 (and up), where the other "
            + "commands look by default; if 2181 is taken they take free ports. Either way baton prints the "
            + "export BATON_CONNECT=... line that points the other commands at them."})
final class ServerCommand implements Callable<Integer> {
    /** ZooKeeper's usual client port, and where every other subcommand connects by default. */
    static final int DEFAULT_PORT = 2181;

    @Spec
    CommandSpec spec;

    @Option(names = "--nodes", paramLabel = "N", defaultValue = "3",
        description = "How many servers: 1 runs a standalone server, 3 or 5 a quorum (default: ${DEFAULT-VALUE}).")
    int nodes;

    @Option(names = "--port", paramLabel = "PORT",
        description = "Client port of server 1; server n listens on PORT+n-1. 0 takes free ports (default: 2181, or free "
            + "ports if 2181 is taken).")
    Integer port;

    @Option(names = "--data-dir", paramLabel = "DIR",
        description = "Keep the data in DIR across runs (default: a temporary folder, deleted on exit).")
    Path dataDir;

    @Option(names = "--durable", description = "Fsync every transaction before acknowledging it (default: off).")
    boolean durable;

    @Option(names = "--tls", description = "Serve TLS only, with a CA and certificates made for this run (deleted on exit "
        + "unless --data-dir); prints the trust store and password a client needs. Each server runs in a child JVM.")
    boolean tls;

    @Option(names = "--require-client-cert", description = "With --tls: refuse clients without a certificate from this run's "
        + "CA; each client is identified by its certificate's subject (x509). Prints a client key store to use.")
    boolean requireClientCert;

    @Override
    public Integer call() throws InterruptedException {
        if (nodes < 1 || nodes > 9) {
            throw new CliExit(ExitCodes.USAGE, "--nodes must be 1 to 9 (1 runs a standalone server, 3 or 5 a quorum), was " + nodes);
        }
        if (port != null && (port < 0 || port > 65535)) {
            throw new CliExit(ExitCodes.USAGE, "--port must be 0 (free ports) to 65535, was " + port);
        }
        if (port != null && port > 0 && nodes > 1 && port + nodes - 1 > 65535) {
            throw new CliExit(ExitCodes.USAGE, "--port " + port + " leaves no room for " + nodes + " servers (server n listens on PORT+n-1)");
        }
        PrintWriter out = spec.commandLine().getOut();
        String fallback = null;
        int firstPort;
        if (port == null) {
            OptionalInt taken = firstTaken(DEFAULT_PORT);
            fallback = taken.isPresent() ? "port " + taken.getAsInt() + " is in use" : null;
            firstPort = taken.isPresent() ? 0 : DEFAULT_PORT;
        } else {
            if (port > 0) {
                OptionalInt taken = firstTaken(port);
                if (taken.isPresent()) {
                    throw portInUse(taken.getAsInt());
                }
            }
            firstPort = port;
        }
        EmbeddedEnsemble ensemble;
        try {
            ensemble = build(firstPort);
        } catch (PortTaken e) {
            if (port != null) {
                throw new CliExit(ExitCodes.SOFTWARE, e.getMessage());
            }
            fallback = e.getMessage(); // taken between the look and the reservation
            ensemble = build(0);
        }
        Lifetime life = new Lifetime();
        try {
            ensemble.start();
            out.println("ZooKeeper ensemble of " + ensemble.size() + (ensemble.size() == 1 ? " server" : " servers")
                + ", leader: server " + ensemble.leaderId());
            out.println("connect string: " + ensemble.connectString());
            out.println("data: " + ensemble.dataDir() + (dataDir == null ? " (deleted on exit)" : ""));
            if (fallback != null) {
                out.println(fallback + ", so the servers listen on free ports; point the other commands at them:");
            } else if (ensemble.clientPort(1) == DEFAULT_PORT) {
                out.println("the other baton commands find it by default (" + ConnectOptions.DEFAULT_CONNECT + "); to name all servers:");
            } else {
                out.println("point the other commands at it:");
            }
            out.println("  export BATON_CONNECT=" + ensemble.connectString());
            if (tls) {
                EnsembleMain.tlsClientSettings(ensemble.certificates(), requireClientCert).forEach(out::println);
            }
            out.println("serving; Ctrl-C to stop");
            out.flush();
            life.awaitStop();
            return ExitCodes.OK;
        } catch (EnsembleException e) {
            throw new CliExit(ExitCodes.SOFTWARE, e.getMessage());
        } finally {
            out.println("stopping");
            out.flush();
            ensemble.close();
            out.println("stopped");
            out.flush();
            life.close();
        }
    }

    /** The ensemble on client ports from {@code firstPort} (0: free ports), its folders made and ports reserved. */
    private EmbeddedEnsemble build(int firstPort) {
        EmbeddedEnsemble.Builder builder = EmbeddedEnsemble.builder();
        try {
            builder.nodes(nodes).forceSync(durable);
            if (requireClientCert && !tls) {
                throw new CliExit(ExitCodes.USAGE, "--require-client-cert needs --tls");
            }
            if (tls) {
                // the one way EnsembleMain --tls serves TLS too: each server in a JVM of its own
                EnsembleMain.serveTls(builder, requireClientCert);
            }
            if (dataDir != null) {
                builder.dataDir(dataDir);
            }
        } catch (IllegalArgumentException e) {
            throw new CliExit(ExitCodes.USAGE, inOptionWords(e.getMessage()));
        }
        if (firstPort > 0) {
            builder.clientPort(firstPort);
        }
        try {
            return builder.build();
        } catch (IllegalArgumentException e) {
            // a taken client port is one the builder could not bind (its message names the port:
            // "port 2181 is already in use on 127.0.0.1"); anything else is a setting to correct
            if (firstPort > 0 && causedByBindFailure(e)) {
                throw new PortTaken(e.getMessage());
            }
            throw new CliExit(ExitCodes.USAGE, inOptionWords(e.getMessage()));
        }
    }

    /** Whether a {@link BindException} is among {@code e}'s causes: what the builder reports a taken port by. */
    private static boolean causedByBindFailure(Throwable e) {
        for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
            if (cause instanceof BindException) {
                return true;
            }
        }
        return false;
    }

    /**
     * The builder's message about the data folder ("dataDir /x is in use by another running
     * ensemble", "... is a file, not a folder") in the words the user typed: {@code --data-dir}.
     */
    private static String inOptionWords(String message) {
        return message != null && message.startsWith("dataDir ") ? "--data-dir " + message.substring("dataDir ".length()) : message;
    }

    /** The first of this ensemble's client ports, from {@code first} on, that something already listens on. */
    private OptionalInt firstTaken(int first) {
        for (int p = first; p < first + nodes && p <= 65535; p++) {
            try (ServerSocket probe = new ServerSocket()) {
                probe.setReuseAddress(true);
                probe.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), p));
            } catch (IOException e) {
                return OptionalInt.of(p);
            }
        }
        return OptionalInt.empty();
    }

    private static CliExit portInUse(int taken) {
        return new CliExit(ExitCodes.SOFTWARE, "port " + taken + " is already in use on 127.0.0.1 (another ZooKeeper?): "
            + "choose another --port, or --port 0 for free ports");
    }

    /** A client port that was free when looked at and taken when reserved. */
    private static final class PortTaken extends RuntimeException {
        private static final long serialVersionUID = 1L;

        PortTaken(String message) {
            super(message);
        }
    }
}
