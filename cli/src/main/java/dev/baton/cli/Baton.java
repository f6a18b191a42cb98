package dev.baton.cli;

import dev.baton.framework.BatonException;
import dev.baton.framework.ClientClosedException;
import dev.baton.framework.ConnectionLossException;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The {@code baton} command: a local ensemble, locks and leadership around shell commands, the
 * recipes from the shell, inspection, and a demo.
 */
@Command(name = "baton", mixinStandardHelpOptions = true, version = "baton 0.1.0-SNAPSHOT",
    description = "Coordination recipes on Apache ZooKeeper, from the shell.",
    subcommands = {
        ServerCommand.class,
        LockCommand.class,
        SemCommand.class,
        ElectCommand.class,
        BarrierCommand.class,
        BarrierCommand.Latch.class,
        QueueCommand.class,
        DiscoveryCommand.class,
        ConfigCommand.class,
        TreeCommands.Ls.class,
        TreeCommands.Get.class,
        TreeCommands.Set.class,
        TreeCommands.Tree.class,
        StatusCommand.class,
        DemoCommand.class,
        CommandLine.HelpCommand.class
    },
    footer = {"", "Exit codes: 0 ok, 1 not acquired in time, 64 usage error, 69 ensemble unreachable,",
        "70 internal error, 75 lock or leadership lost, 130 interrupted; lock/sem/elect pass the command's own code through."})
public final class Baton implements Runnable {
    @Spec
    CommandSpec spec;

    public static void main(String[] args) {
        if (System.getProperty("logback.configurationFile") == null) {
            System.setProperty("logback.configurationFile", "baton-logback.xml");
        }
        System.exit(run(args));
    }

    /** Runs the command line and returns the exit code (the tests call this in-process too). */
    public static int run(String... args) {
        CommandLine line = new CommandLine(new Baton());
        line.setParameterExceptionHandler(Baton::usageError);
        line.setExecutionExceptionHandler(Baton::failure);
        return line.execute(args);
    }

    @Override
    public void run() {
        throw CliExit.needsSubcommand(spec, "a subcommand is required");
    }

    private static int usageError(CommandLine.ParameterException e, String[] args) {
        PrintWriter err = e.getCommandLine().getErr();
        err.println("baton: " + e.getMessage());
        err.println("Try '" + e.getCommandLine().getCommandSpec().qualifiedName() + " --help'.");
        return ExitCodes.USAGE;
    }

    private static int failure(Exception e, CommandLine line, CommandLine.ParseResult parsed) {
        PrintWriter err = line.getErr();
        if (e instanceof CliExit exit) {
            if (exit.getMessage() != null && !exit.getMessage().isEmpty()) {
                err.println("baton: " + exit.getMessage());
            }
            return exit.code();
        }
        if (e instanceof ConnectionLossException || e instanceof ClientClosedException) {
            err.println("baton: lost the ensemble: " + e.getMessage());
            return ExitCodes.UNAVAILABLE;
        }
        if (e instanceof BatonException) {
            err.println("baton: " + e.getMessage());
            return ExitCodes.SOFTWARE;
        }
        if (e instanceof InterruptedException) {
            err.println("baton: interrupted");
            return ExitCodes.INTERRUPTED;
        }
        err.println("baton: unexpected failure: " + e);
        e.printStackTrace(err);
        return ExitCodes.SOFTWARE;
    }
}
