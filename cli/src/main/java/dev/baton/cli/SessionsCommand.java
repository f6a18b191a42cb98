package dev.baton.cli;

import dev.baton.cli.ServerWords.Answer;
import dev.baton.cli.ServerWords.Connection;
import dev.baton.cli.ServerWords.Status;
import dev.baton.server.FourLetterWords;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.net.SocketFactory;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code baton sessions}: the servers' view of the sessions — which server each is connected
 * to, its timeout, its ephemeral nodes and the paths it watches — read with the four-letter
 * words {@code cons} (connections, per server), {@code dump} (every session and its ephemerals)
 * and {@code wchc} (watches by session). It opens no session of its own, so it does not show
 * up in what it reports.
 *
 * <p>A word a server's {@code 4lw.commands.whitelist} leaves out is named in a note, with what
 * is then missing from the report; the command fails (exit 69) only when no server told anything.
 */
@Command(name = "sessions",
    description = {"Show the servers' sessions: where each is connected, its ephemeral nodes and its watches.",
        "Ask every server of the ensemble (four-letter words cons, dump and wchc) for its sessions: the server and "
            + "client address of each connection, the granted timeout, the connection's age and last request, the "
            + "session's ephemeral nodes and the paths it watches. A word a server does not allow "
            + "(4lw.commands.whitelist) is named in a note, with what is missing because of it. Opens no session itself."})
final class SessionsCommand implements Callable<Integer> {
    @Mixin
    ConnectOptions connection;
    @Mixin
    Output output;
    @Spec
    CommandSpec spec;
    @Option(names = "--counts", description = "Print counts of ephemerals and watches instead of their paths.")
    boolean counts;

    /**
     * One server as {@code sessions} saw it.
     *
     * @param server host:port
     * @param mode leader, follower, observer, standalone, or why it is unknown
     * @param connections client connections it holds
     * @param notAllowed the words it refused (4lw.commands.whitelist)
     */
    record Server(String server, String mode, int connections, List<String> notAllowed) {
    }

    /**
     * One session.
     *
     * @param session its id, {@code 0x}-hex
     * @param server the server it is connected to, or null if connected to none that answered (it
     *     may be reconnecting; it expires unless it comes back within its timeout)
     * @param client the client's address, or null
     * @param timeoutMillis the granted session timeout, or 0 if unknown
     * @param connectedMillis how long its connection has lasted, or -1 if unknown
     * @param lastOperation the last request on its connection, or null
     * @param ephemerals its ephemeral nodes, or null when no server allowed {@code dump}
     * @param watches the paths it watches, or null when no server allowed {@code wchc}
     */
    record Session(String session, String server, String client, long timeoutMillis, long connectedMillis, String lastOperation,
        List<String> ephemerals, List<String> watches) {
    }

    /**
     * What {@code --json} prints.
     *
     * @param servers each server of the connect string
     * @param sessions every session any server told of; null when no server answered (nothing is known)
     * @param notes what could not be read, and why
     */
    record Report(List<Server> servers, List<Session> sessions, List<String> notes) {
    }

    @Override
    public Integer call() {
        List<InetSocketAddress> addresses = ServerWords.servers(connection.connectString());
        SocketFactory sockets = connection.wordSockets();
        List<Server> servers = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        Map<Long, Connection> connected = new LinkedHashMap<>();
        Map<Long, List<String>> ephemerals = null;
        Map<Long, List<String>> watches = null;
        List<Answer> unreachable = new ArrayList<>();
        boolean anyAnswer = false;
        long now = System.currentTimeMillis();
        for (InetSocketAddress address : addresses) {
            String name = ServerWords.name(address);
            Answer srvr = ServerWords.ask(address, "srvr", sockets, ServerWords.TIMEOUT);
            if (srvr.status() == Status.UNREACHABLE) {
                servers.add(new Server(name, "unreachable", 0, List.of()));
                notes.add(srvr.why());
                unreachable.add(srvr);
                continue;
            }
            String mode = srvr.answered() ? FourLetterWords.mode(srvr.text()) : srvr.status() == Status.NOT_ALLOWED ? "unknown" : "not serving";
            List<String> notAllowed = new ArrayList<>();
            if (srvr.status() == Status.NOT_ALLOWED) {
                notAllowed.add("srvr");
            }
            Answer cons = ServerWords.ask(address, "cons", sockets, ServerWords.TIMEOUT);
            List<Connection> here = cons.answered() ? ServerWords.connections(name, cons.text()) : List.of();
            here.forEach(c -> connected.put(c.sessionId(), c));
            Answer dump = ServerWords.ask(address, "dump", sockets, ServerWords.TIMEOUT);
            Answer wchc = ServerWords.ask(address, "wchc", sockets, ServerWords.TIMEOUT);
            for (Answer answer : List.of(cons, dump, wchc)) {
                if (answer.status() == Status.NOT_ALLOWED) {
                    notAllowed.add(answer.word());
                }
                anyAnswer |= answer.answered();
            }
            if (dump.answered()) {
                Map<Long, List<String>> read = ServerWords.sessionsWithEphemerals(dump.text());
                if (ephemerals == null || read.size() > ephemerals.size()) {
                    ephemerals = read; // every server knows every session and ephemeral; the fullest answer wins
                }
            }
            if (wchc.answered()) {
                // each server knows only the watches set through it: the views add up
                watches = watches == null ? new LinkedHashMap<>() : watches;
                for (Map.Entry<Long, List<String>> e : ServerWords.watchesBySession(wchc.text()).entrySet()) {
                    watches.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).addAll(e.getValue());
                }
            }
            servers.add(new Server(name, mode, here.size(), notAllowed));
        }
        if (!anyAnswer) {
            report(new Report(servers, null, notes));
            if (unreachable.size() == servers.size()) {
                throw new CliExit(ExitCodes.UNAVAILABLE, cannotReach(unreachable));
            }
            throw new CliExit(ExitCodes.UNAVAILABLE, "no server of " + connection.connectString()
                + " answered cons, dump or wchc (unreachable, not serving, or not allowed by 4lw.commands.whitelist); "
                + "to allow them, set 4lw.commands.whitelist=srvr,conf,isro,cons,dump,wchc in each server's zoo.cfg (or "
                + "-Dzookeeper.4lw.commands.whitelist=...) and restart it: since ZooKeeper 3.5 only srvr is allowed by default. "
                + "The AdminServer (HTTP) is not read");
        }
        notes.addAll(missing(servers, ephemerals == null, watches == null));
        report(new Report(servers, sessions(connected, ephemerals, watches, now), notes));
        return ExitCodes.OK;
    }

    /**
     * Nothing answered at any address: the servers' whitelist is beside the point (a server that
     * refuses a word still answers), so say what each connection met.
     */
    private String cannotReach(List<Answer> unreachable) {
        boolean tls = unreachable.stream().anyMatch(ServerWords::tlsMismatch);
        return "cannot reach the ensemble at " + connection.connectString() + ": "
            + String.join("; ", unreachable.stream().map(Answer::why).toList())
            + (tls ? "" : "; is it running? (set -s or BATON_CONNECT)");
    }

    /** What a refused word leaves out of the report: one note per word, naming every server that refused it. */
    private static List<String> missing(List<Server> servers, boolean noDump, boolean noWchc) {
        Map<String, List<String>> refusedBy = new LinkedHashMap<>();
        for (Server server : servers) {
            for (String word : server.notAllowed()) {
                refusedBy.computeIfAbsent(word, w -> new ArrayList<>()).add(server.server());
            }
        }
        List<String> notes = new ArrayList<>();
        refusedBy.forEach((word, by) -> {
            boolean all = by.size() == servers.size();
            String effect = switch (word) {
                case "cons" -> "which sessions are connected to " + (all ? "the servers" : "them") + " is not shown";
                case "dump" -> noDump ? "ephemeral nodes, and sessions not connected to an answering server, are not shown"
                    : "another server's dump was used";
                case "wchc" -> noWchc ? "watches per session are not shown" : "watches set through " + (by.size() == 1 ? "it" : "them")
                    + " are not shown";
                default -> "modes are not shown";
            };
            notes.add(word + " is not allowed on " + String.join(", ", by) + " (4lw.commands.whitelist): " + effect
                + "; to see it, add " + word + " to 4lw.commands.whitelist in " + (all ? "the servers'" : "their") + " zoo.cfg");
        });
        return notes;
    }

    private static List<Session> sessions(Map<Long, Connection> connected, Map<Long, List<String>> ephemerals,
        Map<Long, List<String>> watches, long now) {
        Map<Long, Session> sessions = new LinkedHashMap<>();
        for (Connection c : connected.values()) {
            sessions.put(c.sessionId(), new Session(Output.hex(c.sessionId()), c.server(), c.client(), c.timeoutMillis(),
                c.establishedMillis() == 0 ? -1 : Math.max(0, now - c.establishedMillis()), c.lastOperation(),
                ephemerals == null ? null : ephemerals.getOrDefault(c.sessionId(), List.of()),
                watches == null ? null : watches.getOrDefault(c.sessionId(), List.of())));
        }
        if (ephemerals != null) {
            for (Map.Entry<Long, List<String>> e : ephemerals.entrySet()) {
                sessions.putIfAbsent(e.getKey(), new Session(Output.hex(e.getKey()), null, null, 0, -1, null, e.getValue(),
                    watches == null ? null : watches.getOrDefault(e.getKey(), List.of())));
            }
        }
        return List.copyOf(sessions.values());
    }

    private void report(Report report) {
        PrintWriter out = spec.commandLine().getOut();
        if (output.json) {
            Output.json(out, report);
            out.flush();
            return;
        }
        Output.Table servers = new Output.Table("SERVER", "MODE", "CONNECTIONS", "NOT ALLOWED");
        report.servers().forEach(s -> servers.row(s.server(), s.mode(), s.connections(),
            s.notAllowed().isEmpty() ? "" : String.join(" ", s.notAllowed())));
        servers.print(out, "");
        // null: no server answered, so nothing is known of the sessions (and no claim that there are none)
        if (report.sessions() != null) {
            out.println();
            if (report.sessions().isEmpty()) {
                out.println("no sessions");
            } else {
                Output.Table sessions = new Output.Table("SESSION", "SERVER", "CLIENT", "TIMEOUT", "CONNECTED", "LAST OP", "EPHEMERALS", "WATCHES");
                for (Session s : report.sessions()) {
                    sessions.row(s.session(), s.server() == null ? "(none)" : s.server(), s.client(),
                        s.timeoutMillis() == 0 ? null : Output.age(s.timeoutMillis()), s.connectedMillis() < 0 ? null : Output.age(s.connectedMillis()),
                        s.lastOperation(), s.ephemerals() == null ? "?" : s.ephemerals().size(), s.watches() == null ? "?" : s.watches().size());
                }
                sessions.print(out, "");
                if (!counts) {
                    for (Session s : report.sessions()) {
                        List<String> lines = new ArrayList<>();
                        (s.ephemerals() == null ? List.<String>of() : s.ephemerals()).forEach(p -> lines.add("  ephemeral " + p));
                        (s.watches() == null ? List.<String>of() : s.watches()).forEach(p -> lines.add("  watch     " + p));
                        if (!lines.isEmpty()) {
                            out.println(s.session() + ":");
                            lines.forEach(out::println);
                        }
                    }
                }
            }
        }
        if (!report.notes().isEmpty()) {
            out.println();
            report.notes().forEach(n -> out.println("note: " + n));
        }
        out.flush();
    }
}
