package dev.baton.server;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * Runs an embedded ensemble in the foreground until Ctrl-C or SIGTERM:
 * {@code java -jar baton-server-embedded.jar [--nodes 3] [--port 2181] [--data-dir DIR] [--durable]}.
 *
 * <p>Prints the connect string and the leader, then serves. Exit codes: 0 after a clean
 * shutdown, 64 for a usage error, 70 when the ensemble cannot start.
 */
public final class EnsembleMain {
    private static final String USAGE =
        "usage: baton-server-embedded [--nodes N] [--port P] [--data-dir DIR] [--durable]\n"
            + "  --nodes N       servers in the ensemble (default 3; 1 runs a standalone server)\n"
            + "  --port P        client port of server 1; server n listens on P+n-1 (default: free ports)\n"
            + "  --data-dir DIR  keep data in DIR across runs (default: a temporary folder, deleted on exit)\n"
            + "  --durable       fsync every transaction (default off)\n";

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
        EmbeddedEnsemble.Builder builder;
        try {
            builder = parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("error: " + e.getMessage());
            System.err.print(USAGE);
            System.exit(64);
            return;
        }
        if (builder == null) {
            System.out.print(USAGE);
            return;
        }
        System.exit(run(builder, System.out, new CountDownLatch(1)));
    }

    /** Builds, starts and serves until {@code stop} is released or the JVM is asked to exit. */
    static int run(EmbeddedEnsemble.Builder builder, PrintStream out, CountDownLatch stop) throws InterruptedException {
        EmbeddedEnsemble ensemble;
        try {
            ensemble = builder.build();
            ensemble.start();
        } catch (IllegalArgumentException | EnsembleException e) {
            System.err.println("error: " + e.getMessage());
            return 70;
        }
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
        return 0;
    }

    static EmbeddedEnsemble.Builder parse(String[] args) {
        EmbeddedEnsemble.Builder builder = EmbeddedEnsemble.builder().nodes(3);
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
                default -> throw new IllegalArgumentException("unknown option '" + arg + "'");
            }
        }
        return builder;
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
