package dev.baton.cli;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.baton.framework.BatonClient;
import dev.baton.framework.NoNodeException;
import dev.baton.framework.NodeData;
import dev.baton.framework.ZPaths;
import dev.baton.server.FourLetterWords;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.zookeeper.client.ConnectStringParser;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code baton status [PATH]}: the ensemble's servers (role, last zxid, connections) and, for a
 * recipe's path, who holds and who waits, in line order, with fencing tokens.
 */
@Command(name = "status",
    description = {"Show the servers, and who holds and who waits.",
        "Show each server of the ensemble (role, last zxid, connections) and, for a recipe's path, who holds and who "
            + "waits, in line order, with fencing tokens and sessions."})
final class StatusCommand implements Callable<Integer> {
    /** A recipe node: anything, then a marker, then ZooKeeper's sequence number. */
    private static final Pattern TICKET = Pattern.compile(".*?(lock-|latch-|lease-|__READ__|__WRIT__|x-\\d+-)(-?\\d{10})$");

    @Mixin
    ConnectOptions connection;
    @Spec
    CommandSpec spec;
    @Parameters(paramLabel = "PATH", arity = "0..1", description = "A lock, election, semaphore or read/write lock path.")
    String path;

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        String recipePath = path == null ? null : TreeCommands.path(path); // a bad path is refused before anything is printed
        servers(out);
        if (recipePath != null) {
            try (BatonClient client = connection.connect()) {
                recipe(client, recipePath, out);
            }
        }
        out.flush();
        return ExitCodes.OK;
    }

    private void servers(PrintWriter out) {
        ConnectStringParser parsed;
        try {
            parsed = new ConnectStringParser(connection.connectString());
        } catch (IllegalArgumentException e) {
            throw new CliExit(ExitCodes.USAGE, "bad connect string: " + e.getMessage());
        }
        out.println("ensemble " + connection.connectString());
        int reachable = 0;
        for (InetSocketAddress unresolved : parsed.getServerAddresses()) {
            String name = unresolved.getHostString() + ":" + unresolved.getPort();
            try {
                InetSocketAddress server = new InetSocketAddress(unresolved.getHostString(), unresolved.getPort());
                String srvr = FourLetterWords.send(server, "srvr", Duration.ofSeconds(2));
                String mode = FourLetterWords.mode(srvr);
                String zxid = FourLetterWords.field(srvr, "Zxid");
                String connections = FourLetterWords.field(srvr, "Connections");
                out.printf("  %-22s %-11s zxid %-14s connections %s%n", name, mode == null ? "not serving" : mode,
                    zxid == null ? "-" : zxid, connections == null ? "-" : connections);
                reachable++;
            } catch (IOException e) {
                out.printf("  %-22s unreachable (%s)%n", name, e.getMessage());
            }
        }
        if (reachable == 0) {
            out.flush();
            throw new CliExit(ExitCodes.UNAVAILABLE, "no server of " + connection.connectString() + " answered");
        }
    }

    private record Entry(String name, String marker, long sequence, NodeData node) {
    }

    private void recipe(BatonClient client, String recipePath, PrintWriter out) throws InterruptedException {
        List<String> children;
        try {
            children = client.getChildren().forPath(recipePath);
        } catch (NoNodeException e) {
            out.println(recipePath + ": no such node");
            return;
        }
        List<Entry> line = new ArrayList<>();
        List<String> others = new ArrayList<>();
        for (String child : children) {
            Matcher m = TICKET.matcher(child);
            if (!m.matches()) {
                others.add(child);
                continue;
            }
            try {
                NodeData node = client.getData().forPathWithStat(ZPaths.join(recipePath, child));
                line.add(new Entry(child, m.group(1), Long.parseLong(m.group(2)), node));
            } catch (NoNodeException gone) {
                // left while we looked
            }
        }
        line.sort(Comparator.comparingLong(Entry::sequence));
        out.println(recipePath + (line.isEmpty() ? ": nobody holds or waits" : ":"));
        boolean writerAhead = false;
        for (int i = 0; i < line.size(); i++) {
            Entry e = line.get(i);
            boolean holds = switch (e.marker()) {
                case "lease-" -> true;
                case "__READ__" -> !writerAhead;
                case "__WRIT__" -> i == 0;
                default -> i == 0;
            };
            if (e.marker().equals("__WRIT__")) {
                writerAhead = true;
            }
            String data = new String(e.node().data(), UTF_8);
            out.printf("  %2d. %-5s %s  token %d  session 0x%x%s%n", i + 1, holds ? "holds" : "waits", e.name(),
                e.node().stat().getCzxid(), e.node().stat().getEphemeralOwner(), data.isEmpty() ? "" : "  data \"" + data + "\"");
        }
        for (String other : others) {
            out.println("      " + other + "/");
        }
    }
}
