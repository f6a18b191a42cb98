package dev.baton.cli;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.baton.framework.BatonClient;
import dev.baton.framework.NoNodeException;
import dev.baton.framework.NodeData;
import dev.baton.framework.ZPaths;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.zookeeper.data.Stat;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code baton ls|get|set|tree}: look at and change the tree. */
final class TreeCommands {
    private TreeCommands() {
    }

    static String path(String path) {
        try {
            return ZPaths.validate("path", path);
        } catch (RuntimeException e) {
            throw new CliExit(ExitCodes.USAGE, e.getMessage());
        }
    }

    /** What ls, get and tree do with what {@link #printing} gives them. */
    @FunctionalInterface
    interface Printer {
        void print(BatonClient client, PrintWriter out) throws InterruptedException;
    }

    /**
     * Connects, lets {@code printer} write to the command's stdout, flushes it and returns OK; a
     * node missing under {@code path} exits 1 with "no node PATH".
     */
    static int printing(ConnectOptions connection, CommandSpec spec, String path, Printer printer) throws InterruptedException {
        path(path); // a bad path is a usage error before connecting
        try (BatonClient client = connection.connect()) {
            PrintWriter out = spec.commandLine().getOut();
            printer.print(client, out);
            out.flush();
            return ExitCodes.OK;
        } catch (NoNodeException e) {
            throw new CliExit(ExitCodes.NOT_ACQUIRED, "no node " + path);
        }
    }

    @Command(name = "ls", description = "List the children of a node, sorted.")
    static final class Ls implements Callable<Integer> {
        @Mixin
        ConnectOptions connection;
        @Spec
        CommandSpec spec;
        @Parameters(paramLabel = "PATH", arity = "0..1", defaultValue = "/", description = "The node (default: /).")
        String path;

        @Override
        public Integer call() throws InterruptedException {
            return printing(connection, spec, path, (client, out) -> {
                List<String> children = new ArrayList<>(client.getChildren().forPath(path(path)));
                children.sort(null);
                children.forEach(out::println);
            });
        }
    }

    @Command(name = "get", description = "Print a node's data (and with --stat, its stat).")
    static final class Get implements Callable<Integer> {
        @Mixin
        ConnectOptions connection;
        @Spec
        CommandSpec spec;
        @Parameters(paramLabel = "PATH", description = "The node.")
        String path;
        @Option(names = "--stat", description = "Also print its version, zxids, owner and sizes.")
        boolean stat;

        @Override
        public Integer call() throws InterruptedException {
            return printing(connection, spec, path, (client, out) -> {
                NodeData data = client.getData().forPathWithStat(path(path));
                out.println(new String(data.data(), UTF_8));
                if (stat) {
                    out.println(describe(data.stat()));
                }
            });
        }
    }

    @Command(name = "set",
        description = {"Set a node's data.", "Set a node's data, creating it and its parents if it is missing. DATA '-' reads "
            + "standard input."})
    static final class Set implements Callable<Integer> {
        @Mixin
        ConnectOptions connection;
        @Parameters(index = "0", paramLabel = "PATH", description = "The node.")
        String path;
        @Parameters(index = "1", paramLabel = "DATA", description = "Its new data, as text ('-' reads standard input).")
        String data;

        @Override
        public Integer call() throws InterruptedException, IOException {
            String node = path(path); // a bad path is a usage error before reading stdin or connecting
            byte[] bytes = "-".equals(data) ? System.in.readAllBytes() : data.getBytes(UTF_8);
            try (BatonClient client = connection.connect()) {
                client.create().creatingParentsIfNeeded().orSetData().forPath(node, bytes);
                return ExitCodes.OK;
            }
        }
    }

    @Command(name = "tree", description = "Print the subtree under a node.")
    static final class Tree implements Callable<Integer> {
        @Mixin
        ConnectOptions connection;
        @Spec
        CommandSpec spec;
        @Parameters(paramLabel = "PATH", arity = "0..1", defaultValue = "/", description = "The root (default: /).")
        String path;
        @Option(names = "--data", description = "Show each node's data (its first 60 characters).")
        boolean data;
        @Option(names = "--depth", paramLabel = "N", defaultValue = "2147483647", description = "How many levels below PATH to show (default: all).")
        int depth;

        @Override
        public Integer call() throws InterruptedException {
            if (depth < 0) {
                throw new CliExit(ExitCodes.USAGE, "--depth must be 0 or more, was " + depth);
            }
            return printing(connection, spec, path, (client, out) -> print(client, path(path), 0, out));
        }

        private void print(BatonClient client, String node, int level, PrintWriter out) throws InterruptedException {
            String label = level == 0 ? node : ZPaths.name(node);
            String shown = "";
            if (data || level == 0) {
                // read first, so a PATH that is not there exits 1 with "no node PATH" instead of printing it
                byte[] bytes;
                try {
                    bytes = client.getData().forPath(node);
                } catch (NoNodeException gone) {
                    if (level == 0) {
                        throw gone;
                    }
                    return; // went while the tree was walked: left out
                }
                String text = new String(bytes, UTF_8).replace('\n', ' ');
                shown = !data || text.isEmpty() ? "" : "  = " + (text.length() > 60 ? text.substring(0, 60) + "..." : text);
            }
            out.println("  ".repeat(level) + label + shown);
            if (level >= depth) {
                return;
            }
            List<String> children;
            try {
                children = new ArrayList<>(client.getChildren().forPath(node));
            } catch (NoNodeException gone) {
                return;
            }
            children.sort(null);
            for (String child : children) {
                print(client, ZPaths.join(node, child), level + 1, out);
            }
        }
    }

    static String describe(Stat s) {
        return "version " + s.getVersion() + ", czxid 0x" + Long.toHexString(s.getCzxid()) + ", mzxid 0x"
            + Long.toHexString(s.getMzxid()) + ", owner 0x" + Long.toHexString(s.getEphemeralOwner()) + ", "
            + s.getDataLength() + " bytes, " + s.getNumChildren() + " children";
    }
}
