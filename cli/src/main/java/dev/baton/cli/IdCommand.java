package dev.baton.cli;

import dev.baton.framework.BatonClient;
import dev.baton.recipes.group.IdAllocator;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code baton id next [--count N] ALLOCATOR}: cluster-unique ids from the shell (IdAllocator's node). */
@Command(name = "id",
    description = {"Cluster-unique ids from the shell.",
        "id next ALLOCATOR prints the next id (--count N: the next N, consecutive, one per line), reserved with one "
            + "write, so it is larger than every id handed out before the command started. ALLOCATOR is a path if it "
            + "starts with /, else /baton/ids/ALLOCATOR; Java IdAllocators on the same node share its ids."},
    subcommands = IdCommand.Next.class)
final class IdCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw CliExit.needsSubcommand(spec, "id needs a subcommand: next");
    }

    @Command(name = "next", description = "Print the next id, or the next N with --count.")
    static final class Next implements Callable<Integer> {
        @Mixin
        ConnectOptions connection;
        @Spec
        CommandSpec spec;
        @Parameters(paramLabel = "ALLOCATOR", description = "The allocator.")
        String allocator;
        @Option(names = "--count", paramLabel = "N", defaultValue = "1",
            description = "How many ids, 1 to " + IdAllocator.MAX_COUNT + " (default: ${DEFAULT-VALUE}).")
        int count;

        @Override
        public Integer call() throws InterruptedException {
            if (count < 1 || count > IdAllocator.MAX_COUNT) {
                throw new CliExit(ExitCodes.USAGE, "--count must be 1 to " + IdAllocator.MAX_COUNT + ", was " + count);
            }
            String path = Names.path("ids", allocator);
            try (BatonClient client = connection.connect()) {
                // one write for all N ids, and none left over to waste: a command lives for one call
                long[] ids = IdAllocator.builder(client, path).strictlyMonotonic().build().next(count);
                PrintWriter out = spec.commandLine().getOut();
                StringBuilder text = new StringBuilder(count * 8);
                for (long id : ids) {
                    text.append(id).append('\n');
                }
                out.print(text);
                out.flush();
                return ExitCodes.OK;
            }
        }
    }
}
