package dev.baton.cli;

import dev.baton.server.EmbeddedEnsemble;
import dev.baton.server.EnsembleException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code baton server}: a real ZooKeeper ensemble in the foreground, until Ctrl-C or SIGTERM. */
@Command(name = "server", mixinStandardHelpOptions = true,
    description = "Run an embedded ZooKeeper ensemble in the foreground; Ctrl-C or SIGTERM stops it cleanly.")
final class ServerCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--nodes", defaultValue = "3", description = "servers (default ${DEFAULT-VALUE}; 1 runs a standalone server)")
    int nodes;

    @Option(names = "--port", description = "client port of server 1; server n uses PORT+n-1 (default: free ports)")
    Integer port;

    @Option(names = "--data-dir", description = "keep data here across runs (default: a temporary folder, deleted on exit)")
    Path dataDir;

    @Option(names = "--durable", description = "fsync every transaction (default off)")
    boolean durable;

    @Override
    public Integer call() throws InterruptedException {
        EmbeddedEnsemble.Builder builder = EmbeddedEnsemble.builder();
        EmbeddedEnsemble ensemble;
        try {
            builder.nodes(nodes).forceSync(durable);
            if (port != null) {
                builder.clientPort(port);
            }
            if (dataDir != null) {
                builder.dataDir(dataDir);
            }
            ensemble = builder.build();
        } catch (IllegalArgumentException e) {
            throw new CliExit(ExitCodes.USAGE, e.getMessage());
        }
        Lifetime life = new Lifetime();
        PrintWriter out = spec.commandLine().getOut();
        try {
            ensemble.start();
            out.println("connect string: " + ensemble.connectString());
            out.println("servers: " + ensemble.size() + ", leader: server " + ensemble.leaderId());
            out.println("data: " + ensemble.dataDir());
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
}
