package dev.baton.cli;

import dev.baton.framework.BatonException;
import dev.baton.framework.ClientClosedException;
import dev.baton.framework.ConnectionLossException;
import java.io.PrintWriter;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Spec;

/**
 * The {@code baton} command: a local ensemble, locks and leadership around shell commands, the
 * recipes from the shell, inspection, and a demo.
 */
@Command(name = "baton", version = "baton 0.1.0-SNAPSHOT",
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
        TxCommand.class,
        MembersCommand.class,
        NamesCommand.class,
        IdCommand.class,
        ConfigCommand.class,
        TreeCommands.Ls.class,
        TreeCommands.Get.class,
        TreeCommands.Set.class,
        TreeCommands.Tree.class,
        StatusCommand.class,
        LocksCommand.class,
        LeadersCommand.class,
        SessionsCommand.class,
        QueuesCommand.class,
        DoctorCommand.class,
        DemoCommand.class,
        CommandLine.HelpCommand.class
    },
    footer = {"", "Exit codes: 0 done, 1 not acquired in time, 64 usage error, 69 ensemble unreachable, 70 internal error, "
        + "75 lock or leadership lost, 77 credentials refused, 78 doctor found a problem, 128+N ended by signal N "
        + "(130 Ctrl-C, 143 SIGTERM); lock, sem and elect pass the command's own code through."})
public final class Baton implements Runnable {
    @Spec
    CommandSpec spec;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
    boolean help;

    @Option(names = {"-V", "--version"}, versionHelp = true, description = "Print the version and exit.")
    boolean version;

    /**
     * Runs the {@code baton} command and exits the JVM with its exit code.
     *
     * @param args the command line, as {@code baton} was given it
     */
    public static void main(String[] args) {
        if (System.getProperty("logback.configurationFile") == null) {
            System.setProperty("logback.configurationFile", "baton-logback.xml");
        }
        System.exit(run(args));
    }

    /**
     * Runs the command line and returns the exit code (the tests call this in-process too).
     *
     * @param args the command line, as {@code baton} was given it
     * @return the exit code: 0 ok, 1 not acquired in time, 64 usage error, 69 ensemble unreachable, 70
     *     internal error, 75 lock or leadership lost, 130 interrupted, or the child command's own code
     */
    public static int run(String... args) {
        return commandLine().execute(args);
    }

    /** The whole command tree, with baton's handlers of usage errors and failures. */
    static CommandLine commandLine() {
        CommandLine line = new CommandLine(new Baton());
        line.getSubcommands().values().forEach(Baton::addHelpOption);
        line.setParameterExceptionHandler(Baton::usageError);
        line.setExecutionExceptionHandler(Baton::failure);
        return line;
    }

    /** -h for every subcommand (picocli's help command has its own); -V belongs to the top command alone. */
    private static void addHelpOption(CommandLine command) {
        if (!(command.getCommand() instanceof CommandLine.HelpCommand)) {
            command.getCommandSpec().addOption(OptionSpec.builder("-h", "--help").usageHelp(true)
                .description("Show this help and exit.").build());
        }
        command.getSubcommands().values().forEach(Baton::addHelpOption);
    }

    @Override
    public void run() {
        throw CliExit.needsSubcommand(spec, "a subcommand is required");
    }

    /** Levenshtein distance: the fewest insertions, deletions and substitutions from a to b. */
    static int editDistance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }

    /** One line on stderr: what is wrong, a suggestion for a near miss, and where the help is. */
    private static int usageError(CommandLine.ParameterException e, String[] args) {
        CommandLine line = e.getCommandLine();
        String message = e.getMessage();
        if (e instanceof CommandLine.UnmatchedArgumentException unmatched && !unmatched.getUnmatched().isEmpty()) {
            String first = unmatched.getUnmatched().get(0);
            boolean command = !first.startsWith("-") && !line.getSubcommands().isEmpty();
            message = (command ? "unknown command '" : first.startsWith("-") ? "unknown option '" : "unexpected argument '") + first + "'";
            List<String> near = unmatched.getSuggestions();
            if (!near.isEmpty()) {
                // picocli orders its suggestions by letter-pair similarity, which put --truststore
                // before --try for '--tri'; the fewest edits away is the likelier slip
                String closest = near.stream().min(java.util.Comparator.comparingInt(s -> editDistance(first, s))).orElseThrow();
                message += "; did you mean " + closest + "?";
            }
        } else if (message.length() > 1 && Character.isUpperCase(message.charAt(0)) && Character.isLowerCase(message.charAt(1))) {
            message = Character.toLowerCase(message.charAt(0)) + message.substring(1);
        }
        PrintWriter err = line.getErr();
        err.println("baton: " + message + " (see '" + line.getCommandSpec().qualifiedName() + " --help')");
        err.flush();
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
