package dev.baton.cli;

import dev.baton.framework.BatonClient;
import dev.baton.framework.NoNodeException;
import dev.baton.framework.ZPaths;
import dev.baton.recipes.lock.InterProcessSemaphoreV2;
import dev.baton.server.FourLetterWords;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import javax.net.SocketFactory;
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
    /** How long one server may take to answer {@code srvr}. */
    private static final Duration WORD_TIMEOUT = Duration.ofSeconds(2);
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
        List<InetSocketAddress> addresses = ServerWords.servers(connection.connectString());
        SocketFactory sockets = connection.wordSockets();
        out.println("ensemble " + connection.connectString());
        ServerWords.Answer firstFailure = null;
        int reachable = 0;
        for (InetSocketAddress server : addresses) {
            ServerWords.Answer srvr = ServerWords.ask(server, "srvr", sockets, WORD_TIMEOUT);
            if (srvr.status() == ServerWords.Status.UNREACHABLE) {
                out.printf("  %-22s unreachable (%s)%n", srvr.server(), srvr.text());
                firstFailure = firstFailure == null ? srvr : firstFailure;
                continue;
            }
            String text = srvr.answered() ? srvr.text() : "";
            String mode = srvr.status() == ServerWords.Status.NOT_ALLOWED ? "srvr not allowed" : FourLetterWords.mode(text);
            String zxid = FourLetterWords.field(text, "Zxid");
            String connections = FourLetterWords.field(text, "Connections");
            out.printf("  %-22s %-11s zxid %-14s connections %s%n", srvr.server(), mode == null ? "not serving" : mode,
                zxid == null ? "-" : zxid, connections == null ? "-" : connections);
            reachable++;
        }
        if (reachable == 0) {
            out.flush();
            throw new CliExit(ExitCodes.UNAVAILABLE, "no server of " + connection.connectString() + " answered"
                + (firstFailure == null ? "" : ": " + firstFailure.why()));
        }
    }

    /**
     * The line of the recipe at {@code recipePath}, judged by {@link RecipeScan}'s rules (the same
     * as {@code baton locks}): a semaphore's newest lease whose owner still heads the internal
     * mutex is {@code counting}, not held. A semaphore's {@code leases} folder is shown as the
     * semaphore, since its nodes alone cannot tell a held lease from one still waiting.
     */
    private void recipe(BatonClient client, String recipePath, PrintWriter out) throws InterruptedException {
        List<String> children;
        try {
            children = sorted(client.getChildren().forPath(recipePath));
        } catch (NoNodeException e) {
            out.flush(); // the servers stay printed; the missing path exits 1, as ls, get, locks and leaders do
            throw new CliExit(ExitCodes.NOT_ACQUIRED, "no node " + recipePath);
        }
        String folder = recipePath;
        RecipeScan.Kind kind = RecipeScan.kindOf(children);
        boolean leasesFolder = ZPaths.name(recipePath).equals(InterProcessSemaphoreV2.LEASES)
            && !recipePath.equals("/" + InterProcessSemaphoreV2.LEASES);
        if (kind == null && leasesFolder) {
            String parent = ZPaths.parent(recipePath);
            try {
                List<String> siblings = sorted(client.getChildren().forPath(parent));
                if (RecipeScan.kindOf(siblings) == RecipeScan.Kind.SEMAPHORE) {
                    folder = parent;
                    kind = RecipeScan.Kind.SEMAPHORE;
                    children = siblings;
                }
            } catch (NoNodeException gone) {
                // the semaphore went while we looked: the leases folder is shown as it is
            }
        }
        if (kind == RecipeScan.Kind.QUEUE) {
            out.println(recipePath + ": a queue, which has no line ('baton queues " + recipePath + "' shows its depth)");
            return;
        }
        List<RecipeScan.Contender> line = kind == null ? List.of()
            : RecipeScan.line(client, new RecipeScan.Found(folder, kind, children));
        String heading = folder.equals(recipePath) ? ":" : ": the leases of semaphore " + folder + ":";
        out.println(recipePath + (line.isEmpty() ? ": nobody holds or waits" : heading));
        for (int i = 0; i < line.size(); i++) {
            RecipeScan.Contender c = line.get(i);
            out.printf("  %2d. %-5s %s  token %d  session %s%s%n", i + 1, c.state(), c.node(), c.token(), c.session(),
                c.data().isEmpty() ? "" : "  data \"" + c.data() + "\"");
        }
        if (kind != RecipeScan.Kind.SEMAPHORE) {
            for (String other : children) {
                if (!TICKET.matcher(other).matches()) {
                    out.println("      " + other + "/");
                }
            }
        }
    }

    private static List<String> sorted(List<String> children) {
        List<String> sorted = new ArrayList<>(children);
        sorted.sort(null);
        return sorted;
    }
}
