package dev.baton.server;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * Runs an embedded ensemble in the foreground until Ctrl-C or SIGTERM:
 * {@code java -jar baton-server-embedded.jar [--nodes 3] [--port 2181] [--data-dir DIR] [--durable]
 * [--tls [--require-client-cert]]}.
 *
 * <p>Prints the connect string and the leader, then serves. Exit codes: 0 after a clean
 * shutdown, 64 for a usage error, 70 when the ensemble cannot start (after stopping any server that
 * had started and freeing the data folder).
 *
 * <p>{@code --tls} serves TLS only, with certificates made for the run; {@link #serveTls} and
 * {@link #tlsClientSettings} are that one way, shared with {@code baton server --tls}: the same
 * builder settings, and the same {@code export BATON_TLS_...} lines telling a client what it needs.
 */
public final class EnsembleMain {
    /** The name of the client certificate a TLS run issues: its x509 id is {@code CN=baton}. */
    public static final String TLS_CLIENT = "baton";
    private static final String USAGE =
        "usage: baton-server-embedded [--nodes N] [--port P] [--data-dir DIR] [--durable] [--tls [--require-client-cert]]\n"
            + "  --nodes N       servers in the ensemble (default 3; 1 runs a standalone server)\n"
            + "  --port P        client port of server 1; server n listens on P+n-1 (default: free ports)\n"
            + "  --data-dir DIR  keep data in DIR across runs (default: a temporary folder, deleted on exit)\n"
            + "  --durable       fsync every transaction (default off)\n"
            + "  --tls           serve TLS only, with a CA and certificates made for this run (under the data folder);\n"
            + "                  prints the trust store, client key store and password a client needs. Each server\n"
            + "                  runs in a child JVM (ZooKeeper reads TLS settings from system properties)\n"
            + "  --require-client-cert  with --tls: refuse clients without a certificate from this run's CA\n";

    private EnsembleMain() {
    }

    /**
     * Runs an ensemble until Ctrl-C or SIGTERM: {@code --nodes N [--port P] [--data-dir DIR] [--durable]}.
     *
     * @param args the command line
     * @throws InterruptedException if the main thread is interrupted while the ensemble serves
     */
    public static void main(String[] args) throws InterruptedException {
        // quiet ZooKeeper's own logging when running as a program (a library user keeps theirs)
        if (System.getProperty("logback.configurationFile") == null) {
            System.setProperty("logback.configurationFile", "dev/baton/server/ensemble-main-logback.xml");
        }
        Options options;
        try {
            options = parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("error: " + e.getMessage());
            System.err.print(USAGE);
            System.exit(64);
            return;
        }
        if (options == null) {
            System.out.print(USAGE);
            return;
        }
        System.exit(run(options, System.out, System.err, new CountDownLatch(1)));
    }

    /**
     * Builds, starts and serves until {@code stop} is released or the JVM is asked to exit. A start
     * that fails stops the servers it had started and frees the ports and the data folder (deleting
     * a temporary one) before returning 70, so the same command line can be run again at once.
     */
    static int run(Options options, PrintStream out, PrintStream err, CountDownLatch stop) throws InterruptedException {
        EmbeddedEnsemble ensemble;
        try {
            ensemble = options.builder().build();  // a build that fails has freed what it took
        } catch (IllegalArgumentException | EnsembleException e) {
            err.println("error: " + e.getMessage());
            return 70;
        }
        try {
            ensemble.start();
        } catch (RuntimeException e) {
            err.println("error: " + reason(e));
            try {
                ensemble.close();
            } catch (RuntimeException stopping) {
                err.println("error: and stopping the servers that had started failed: " + reason(stopping));
            }
            return 70;
        }
        serve(ensemble, options, out, stop);
        return 0;
    }

    /**
     * Prints what a client needs and serves until {@code stop} is released, by the caller or by
     * this JVM's shutdown (Ctrl-C, SIGTERM), then closes the ensemble; a shutdown waits for that.
     */
    private static void serve(EmbeddedEnsemble ensemble, Options options, PrintStream out, CountDownLatch stop)
        throws InterruptedException {
        CountDownLatch stopped = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            stop.countDown();
            try {
                stopped.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "baton-ensemble-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        out.println("connect string: " + ensemble.connectString());
        out.println("servers: " + ensemble.size() + ", leader: server " + ensemble.leaderId());
        out.println("data: " + ensemble.dataDir());
        if (options.tls()) {
            tlsClientSettings(ensemble.certificates(), options.requireClientCert()).forEach(out::println);
        }
        out.println("serving; press Ctrl-C to stop");
        out.flush();
        try {
            stop.await();
        } finally {
            out.println("stopping");
            ensemble.close();
            out.println("stopped");
            out.flush();
            stopped.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook itself asked us to stop; it is running now
            }
        }
    }

    /** A parsed command line: the ensemble's builder, and whether it serves TLS (for what to print). */
    record Options(EmbeddedEnsemble.Builder builder, boolean tls, boolean requireClientCert) {
    }

    static Options parse(String[] args) {
        EmbeddedEnsemble.Builder builder = EmbeddedEnsemble.builder().nodes(3);
        boolean tls = false;
        boolean requireClientCert = false;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            switch (arg) {
                case "-h", "--help" -> {
                    return null;
                }
                case "--nodes" -> builder.nodes(intValue(arg, value(args, ++i, arg)));
                case "--port" -> builder.clientPort(intValue(arg, value(args, ++i, arg)));
                case "--data-dir" -> builder.dataDir(Path.of(value(args, ++i, arg)));
                case "--durable" -> builder.forceSync(true);
                case "--tls" -> tls = true;
                case "--require-client-cert" -> requireClientCert = true;
                default -> throw new IllegalArgumentException("unknown option '" + arg + "'");
            }
        }
        if (requireClientCert && !tls) {
            throw new IllegalArgumentException("--require-client-cert needs --tls");
        }
        return new Options(tls ? serveTls(builder, requireClientCert) : builder, tls, requireClientCert);
    }

    /**
     * Makes {@code builder} serve TLS only, with certificates made for the run, as
     * {@code --tls} does here and in {@code baton server}: each server in a child JVM (ZooKeeper
     * reads a server's TLS settings from system properties, which must not leak into the process
     * that runs the ensemble), and with {@code requireClientCertificate} clients without a
     * certificate from the run's CA refused at the handshake.
     *
     * @param builder the ensemble's builder
     * @param requireClientCertificate whether a client certificate is required
     * @return {@code builder}
     */
    public static EmbeddedEnsemble.Builder serveTls(EmbeddedEnsemble.Builder builder, boolean requireClientCertificate) {
        return builder.mode(ServerMode.CHILD_PROCESSES).tls(true).requireClientCertificates(requireClientCertificate);
    }

    /**
     * {@return what a client of a TLS run needs, as lines to print: the trust store and its
     * password, and a client key store (certificate {@code CN=baton}), each as the
     * {@code export BATON_TLS_...=} line that every {@code baton} command reads}
     *
     * @param certificates the run's certificates ({@link EmbeddedEnsemble#certificates()})
     * @param clientCertificateRequired whether the servers refuse clients without a certificate
     */
    public static List<String> tlsClientSettings(LocalCertificates certificates, boolean clientCertificateRequired) {
        List<String> lines = new ArrayList<>();
        lines.add("TLS only" + (clientCertificateRequired ? ", client certificates required" : "") + "; clients need:");
        lines.add("  export BATON_TLS_TRUSTSTORE=" + certificates.trustStore());
        lines.add("  export BATON_TLS_TRUSTSTORE_PASSWORD=" + certificates.password());
        // a client certificate is issued either way: a server that does not require one still
        // authenticates a client that presents it (scheme x509, id CN=baton)
        lines.add((clientCertificateRequired ? "and a certificate" : "and, to be identified by a certificate") + " (x509 id "
            + LocalCertificates.x509Id(TLS_CLIENT) + "):");
        lines.add("  export BATON_TLS_KEYSTORE=" + certificates.clientKeyStore(TLS_CLIENT));
        lines.add("  export BATON_TLS_KEYSTORE_PASSWORD=" + certificates.password());
        return lines;
    }

    /** The exception's message, or its type where it has none. */
    private static String reason(RuntimeException e) {
        return e.getMessage() != null ? e.getMessage() : e.toString();
    }

    private static String value(String[] args, int index, String option) {
        if (index >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[index];
    }

    private static int intValue(String option, String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " expects a whole number, was '" + value + "'");
        }
    }
}
