package dev.baton.cli;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.baton.framework.BatonClient;
import dev.baton.recipes.queue.SimpleDistributedQueue;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code baton queue put|take|size}: a distributed FIFO queue from the shell (SimpleDistributedQueue). */
@Command(name = "queue",
    description = {"A distributed FIFO queue from the shell.",
        "queue put NAME ITEM..., queue take NAME, queue size NAME. "
        + "take prints the item on standard output (with --max, up to N items, one per line, taken in one transaction); "
        + "with --timeout it exits 1 if none came. NAME is a path if it starts with /, else /baton/queues/NAME."})
final class QueueCommand implements Callable<Integer> {
    @Mixin
    ConnectOptions connection;
    @Spec
    CommandSpec spec;
    @Parameters(index = "0", paramLabel = "ACTION", description = "put, take or size.")
    String action;
    @Parameters(index = "1", paramLabel = "NAME", description = "The queue.")
    String name;
    @Parameters(index = "2..*", arity = "0..*", paramLabel = "ITEM",
        description = "For put: the items, in order ('-' reads one item from standard input).")
    List<String> items;
    @Option(names = "--timeout", paramLabel = "D", converter = Durations.class,
        description = "For take: give up after D and exit 1 (default: wait as long as it takes).")
    Duration timeout;
    @Option(names = "--max", paramLabel = "N", defaultValue = "1",
        description = "For take: take up to N items (1 to 1000) in one transaction, one per line (default: ${DEFAULT-VALUE}).")
    int max;

    @Override
    public Integer call() throws IOException, InterruptedException {
        // what can be refused without the ensemble is refused before connecting (exit 64 at once)
        switch (action) {
            case "put" -> {
                if (items == null || items.isEmpty()) {
                    throw new CliExit(ExitCodes.USAGE, "queue put needs at least one ITEM");
                }
            }
            case "take" -> {
                if (max < 1 || max > SimpleDistributedQueue.MAX_POLL_MULTI) {
                    throw new CliExit(ExitCodes.USAGE, "--max must be 1 to " + SimpleDistributedQueue.MAX_POLL_MULTI + ", was " + max);
                }
            }
            case "size" -> {
            }
            default -> throw new CliExit(ExitCodes.USAGE, "queue action must be put, take or size, was '" + action + "'");
        }
        try (BatonClient client = connection.connect()) {
            SimpleDistributedQueue queue = new SimpleDistributedQueue(client, Names.path("queues", name));
            PrintWriter out = spec.commandLine().getOut();
            switch (action) {
                case "put" -> {
                    for (String item : items) {
                        queue.offer("-".equals(item) ? System.in.readAllBytes() : item.getBytes(UTF_8));
                    }
                }
                case "take" -> {
                    List<byte[]> taken = queue.pollMulti(max, timeout == null ? ChronoUnit.FOREVER.getDuration() : timeout);
                    if (taken.isEmpty()) {
                        throw new CliExit(ExitCodes.NOT_ACQUIRED, "queue " + name + " stayed empty for " + Durations.format(timeout));
                    }
                    taken.forEach(item -> out.println(new String(item, UTF_8)));
                }
                case "size" -> out.println(queue.size());
                default -> throw new IllegalStateException("checked above: " + action);
            }
            out.flush();
            return ExitCodes.OK;
        }
    }
}
