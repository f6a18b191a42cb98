package dev.baton.cli;

import dev.baton.cli.ServerWords.Answer;
import dev.baton.cli.ServerWords.Status;
import dev.baton.framework.BatonClient;
import dev.baton.framework.BatonException;
import dev.baton.framework.ZPaths;
import dev.baton.framework.ZooKeeperException;
import dev.baton.server.FourLetterWords;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import javax.net.SocketFactory;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code baton doctor}: checks an ensemble the way Baton's recipes will use it, and exits
 * non-zero when something will make them misbehave.
 *
 * <p>It asks every server of the connect string for its version, mode and session-timeout
 * bounds and which four-letter words it allows; connects with the session timeout the
 * application asks for ({@code --session-timeout}); probes TTL nodes with a create and delete in a
 * scratch folder; and times read, sync and write round trips. Each check is {@code ok},
 * {@code warn} (works, but know it) or {@code fail} (recipes will misbehave).
 *
 * <p>Exit: 0 when no check fails ({@code --strict}: and none warns); 78 (EX_CONFIG) when one
 * does; 69 when the ensemble cannot be reached at all.
 */
@Command(name = "doctor",
    description = {"Check the ensemble for what will make recipes misbehave; exit 78 if something will.",
        "Report each server's version, mode, session-timeout bounds and allowed four-letter words; connect with the "
            + "session timeout the application asks for (--session-timeout); probe TTL nodes (a create and a delete in "
            + "--scratch); time read, sync and write round trips. Each check is ok, warn or fail. Exit 0 when nothing fails "
            + "(with --strict: nor warns), 78 when something does, 69 when the ensemble cannot be reached."})
final class DoctorCommand implements Callable<Integer> {
    /** The read-only words probed (never crst, srst or other words that change a server). */
    static final List<String> WORDS = List.of("ruok", "srvr", "stat", "conf", "isro", "cons", "dump", "envi", "mntr", "wchs", "wchc",
        "wchp", "dirs");
    private static final int READS = 5;

    @Mixin
    ConnectOptions connection;
    @Mixin
    Output output;
    @Spec
    CommandSpec spec;
    @Option(names = "--strict", description = "Exit 78 on a warning too.")
    boolean strict;
    @Option(names = "--scratch", paramLabel = "PATH", defaultValue = "/baton/doctor",
        description = "Where the TTL probe creates and deletes its node (default: ${DEFAULT-VALUE}; made as containers, "
            + "so it goes when empty).")
    String scratch;

    /**
     * A server as the doctor saw it.
     *
     * @param server host:port
     * @param status serving, not serving or unreachable
     * @param mode leader, follower, observer, standalone, read-only; null if unknown
     * @param version ZooKeeper's version, such as 3.9.5; null if unknown
     * @param zxid the last zxid it applied; null if unknown
     * @param minSessionTimeoutMillis the shortest session timeout it grants; null if unknown
     * @param maxSessionTimeoutMillis the longest; null if unknown
     * @param allowedWords the probed four-letter words it answers
     * @param notAllowedWords the probed words its 4lw.commands.whitelist leaves out
     */
    record Server(String server, String status, String mode, String version, String zxid, Long minSessionTimeoutMillis,
        Long maxSessionTimeoutMillis, List<String> allowedWords, List<String> notAllowedWords) {
    }

    /**
     * One check.
     *
     * @param name what was checked
     * @param result ok, warn or fail
     * @param detail what was found, and for warn and fail why it matters
     */
    record Check(String name, String result, String detail) {
    }

    /**
     * What {@code --json} prints.
     *
     * @param connect the connect string
     * @param requestedSessionTimeoutMillis the session timeout asked for
     * @param grantedSessionTimeoutMillis the one the servers granted, or null when not connected
     * @param session the doctor's own session, or null
     * @param servers each server of the connect string
     * @param checks every check, in order
     * @param exitCode what the command exits with
     */
    record Report(String connect, long requestedSessionTimeoutMillis, Long grantedSessionTimeoutMillis, String session,
        List<Server> servers, List<Check> checks, int exitCode) {
    }

    @Override
    public Integer call() throws InterruptedException {
        String scratchPath = TreeCommands.path(scratch);
        List<Server> servers = new ArrayList<>();
        for (InetSocketAddress address : ServerWords.servers(connection.connectString())) {
            servers.add(probe(address, connection.wordSockets()));
        }
        List<Check> checks = new ArrayList<>();
        checks.add(serversCheck(servers));
        checks.add(ensembleCheck(servers));
        checks.add(versionsCheck(servers));
        checks.add(wordsCheck(servers));
        Long granted = null;
        String session = null;
        int exit = ExitCodes.OK;
        BatonClient client = null;
        try {
            client = connection.connect();
        } catch (CliExit e) {
            checks.add(new Check("connection", "fail", e.getMessage()));
            exit = e.code();
        }
        if (client != null) {
            try (BatonClient connected = client) {
                granted = connected.negotiatedSessionTimeout().toMillis();
                session = Output.hex(connected.sessionId());
                checks.add(new Check("connection", "ok", "session " + session));
                checks.add(sessionTimeoutCheck(servers, connected.negotiatedSessionTimeout()));
                long[] write = new long[1];
                checks.add(ttlCheck(connected, scratchPath, write));
                checks.add(roundTripCheck(connected, write[0]));
            }
        }
        if (exit == ExitCodes.OK && checks.stream().anyMatch(c -> c.result().equals("fail") || strict && c.result().equals("warn"))) {
            exit = ExitCodes.CONFIG;
        }
        print(new Report(connection.connectString(), connection.sessionTimeout.toMillis(), granted, session, servers, checks, exit));
        return exit;
    }

    private static Server probe(InetSocketAddress address, SocketFactory sockets) {
        String name = ServerWords.name(address);
        Answer srvr = ServerWords.ask(address, "srvr", sockets, ServerWords.TIMEOUT);
        if (srvr.status() == Status.UNREACHABLE) {
            return new Server(name, "unreachable", null, null, null, null, null, List.of(), List.of());
        }
        List<String> allowed = new ArrayList<>();
        List<String> notAllowed = new ArrayList<>();
        Map<String, String> conf = Map.of();
        String isro = null;
        boolean serving = srvr.status() != Status.NOT_SERVING;
        for (String word : WORDS) {
            Answer answer = word.equals("srvr") ? srvr : ServerWords.ask(address, word, sockets, ServerWords.TIMEOUT);
            switch (answer.status()) {
                case NOT_ALLOWED -> notAllowed.add(word);
                case UNREACHABLE -> {
                    // gone while we asked: counted by the srvr answer
                }
                default -> allowed.add(word); // a server without quorum still takes the word
            }
            serving &= answer.status() != Status.NOT_SERVING || word.equals("isro") || word.equals("ruok") || word.equals("envi");
            if (answer.answered() && word.equals("conf")) {
                conf = ServerWords.properties(answer.text());
            }
            if (answer.answered() && word.equals("isro")) {
                isro = answer.text().trim();
            }
        }
        String mode = srvr.answered() ? FourLetterWords.mode(srvr.text()) : null;
        if ("ro".equals(isro)) {
            mode = "read-only";
        }
        return new Server(name, serving ? "serving" : "not serving", mode, srvr.answered() ? ServerWords.version(srvr.text()) : null,
            srvr.answered() ? FourLetterWords.field(srvr.text(), "Zxid") : null, millis(conf.get("minSessionTimeout")),
            millis(conf.get("maxSessionTimeout")), allowed, notAllowed);
    }

    private static Long millis(String value) {
        try {
            return value == null ? null : Long.valueOf(value);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static Check serversCheck(List<Server> servers) {
        List<String> down = new ArrayList<>();
        List<String> modes = new ArrayList<>();
        for (Server s : servers) {
            if (!s.status().equals("serving")) {
                down.add(s.server() + " " + s.status());
            } else {
                modes.add(s.mode() == null ? "mode unknown" : s.mode());
            }
        }
        String serving = (servers.size() - down.size()) + " of " + servers.size() + " serving";
        if (!down.isEmpty()) {
            return new Check("servers", "fail", serving + ": " + String.join(", ", down) + "; clients that reach it lose their "
                + "connection and move on, and the ensemble has less room for failures");
        }
        return new Check("servers", "ok", serving + " (" + String.join(", ", modes) + ")");
    }

    private static Check ensembleCheck(List<Server> servers) {
        List<String> heads = new ArrayList<>();
        List<String> readOnly = new ArrayList<>();
        for (Server s : servers) {
            if ("leader".equals(s.mode()) || "standalone".equals(s.mode())) {
                heads.add(s.server() + " " + s.mode());
            }
            if ("read-only".equals(s.mode())) {
                readOnly.add(s.server());
            }
        }
        if (heads.size() > 1) {
            return new Check("ensemble", "fail", "the connect string names servers of different ensembles (" + String.join(", ", heads)
                + "): two clients can each hold the same lock on a different ensemble");
        }
        if (!readOnly.isEmpty()) {
            return new Check("ensemble", "fail", String.join(", ", readOnly) + " in read-only mode: no lock, lease or leadership "
                + "can be taken through it");
        }
        if (heads.isEmpty() && servers.stream().noneMatch(s -> s.status().equals("serving"))) {
            return new Check("ensemble", "fail", "no server of the connect string serves: there is no ensemble to judge");
        }
        return new Check("ensemble", "ok", heads.isEmpty() ? "no leader seen (srvr not allowed)"
            : heads.get(0).replaceFirst("^(\\S+) (\\S+)$", "$2 $1"));
    }

    private static Check versionsCheck(List<Server> servers) {
        Set<String> versions = new LinkedHashSet<>();
        servers.stream().map(Server::version).filter(v -> v != null).forEach(versions::add);
        if (versions.isEmpty()) {
            return new Check("versions", "warn", "unknown (no server answered srvr)");
        }
        for (String version : versions) {
            String[] parts = version.split("\\.");
            if (parts.length >= 2 && parts[0].equals("3") && parts[1].matches("\\d+") && Integer.parseInt(parts[1]) < 6) {
                return new Check("versions", "fail", "ZooKeeper " + version + ": Baton needs 3.6 or later (persistent watches, "
                    + "used by election observers and caches)");
            }
        }
        if (versions.size() > 1) {
            return new Check("versions", "warn", "mixed: " + String.join(", ", versions) + " (a rolling upgrade?)");
        }
        return new Check("versions", "ok", "ZooKeeper " + versions.iterator().next());
    }

    private static Check wordsCheck(List<Server> servers) {
        Set<String> refused = new LinkedHashSet<>();
        servers.forEach(s -> refused.addAll(s.notAllowedWords()));
        String detail = refused.isEmpty() ? "all probed words allowed" : "not allowed: " + String.join(" ", refused);
        if (refused.contains("srvr") || refused.contains("conf")) {
            return new Check("four-letter words", "warn", detail + "; without srvr and conf the doctor cannot check modes and "
                + "session-timeout bounds (add them to 4lw.commands.whitelist)");
        }
        if (refused.contains("cons") || refused.contains("dump") || refused.contains("wchc")) {
            detail += " ('baton sessions' shows less)";
        }
        return new Check("four-letter words", "ok", detail);
    }

    private Check sessionTimeoutCheck(List<Server> servers, Duration granted) {
        Duration asked = connection.sessionTimeout;
        List<String> below = new ArrayList<>();
        List<String> above = new ArrayList<>();
        for (Server s : servers) {
            if (s.maxSessionTimeoutMillis() != null && s.maxSessionTimeoutMillis() < asked.toMillis()) {
                below.add(s.server() + " maxSessionTimeout " + Durations.format(Duration.ofMillis(s.maxSessionTimeoutMillis())));
            }
            if (s.minSessionTimeoutMillis() != null && s.minSessionTimeoutMillis() > asked.toMillis()) {
                above.add(s.server() + " minSessionTimeout " + Durations.format(Duration.ofMillis(s.minSessionTimeoutMillis())));
            }
        }
        String grant = "asked " + Durations.format(asked) + ", granted " + Durations.format(granted);
        below = onEveryServer(below);
        above = onEveryServer(above);
        if (granted.compareTo(asked) < 0 || !below.isEmpty()) {
            return new Check("session timeout", "fail", grant + (below.isEmpty() ? "" : " (" + String.join(", ", below) + ")")
                + ": sessions, and every lock, lease and leadership on them, end sooner than the application planned for; raise "
                + "maxSessionTimeout on the servers or ask for less");
        }
        if (granted.compareTo(asked) > 0 || !above.isEmpty()) {
            return new Check("session timeout", "warn", grant + (above.isEmpty() ? "" : " (" + String.join(", ", above) + ")")
                + ": a crashed holder's locks and leadership are freed only after the longer timeout");
        }
        String bounds = servers.stream().filter(s -> s.minSessionTimeoutMillis() != null).findFirst()
            .map(s -> " (servers grant " + Durations.format(Duration.ofMillis(s.minSessionTimeoutMillis())) + " to "
                + Durations.format(Duration.ofMillis(s.maxSessionTimeoutMillis())) + ")").orElse("");
        return new Check("session timeout", "ok", grant + bounds);
    }

    /** "host:port maxSessionTimeout 5s" for several servers with the same bound, said once: "maxSessionTimeout 5s on 3 servers". */
    private static List<String> onEveryServer(List<String> perServer) {
        Set<String> bounds = new LinkedHashSet<>();
        perServer.forEach(s -> bounds.add(s.substring(s.indexOf(' ') + 1)));
        return perServer.size() < 2 || bounds.size() > 1 ? perServer : List.of(bounds.iterator().next() + " on " + perServer.size() + " servers");
    }

    /** Creates and deletes a TTL node under the scratch folder; {@code writeNanos[0]} gets the create's round trip. */
    private static Check ttlCheck(BatonClient client, String scratchPath, long[] writeNanos) throws InterruptedException {
        String probe = ZPaths.join(scratchPath, "ttl-probe-" + UUID.randomUUID());
        try {
            long start = System.nanoTime();
            client.create().withMode(CreateMode.PERSISTENT_WITH_TTL).withTtl(Duration.ofMinutes(1)).creatingParentContainersIfNeeded()
                .forPath(probe);
            writeNanos[0] = System.nanoTime() - start;
            client.delete().quietly().forPath(probe);
            return new Check("ttl nodes", "ok", "enabled (created and deleted " + probe + ")");
        } catch (ZooKeeperException e) {
            if (e.code() == KeeperException.Code.UNIMPLEMENTED) {
                return new Check("ttl nodes", "warn", "disabled: the servers refuse TTL nodes (set zookeeper.extendedTypesEnabled=true "
                    + "on them); PersistentTtlNode and recipes that use TTL nodes fail with TtlNodesDisabledException");
            }
            return new Check("ttl nodes", "warn", "could not probe at " + probe + ": " + e.getMessage() + " (choose another --scratch)");
        } catch (BatonException e) {
            return new Check("ttl nodes", "warn", "could not probe at " + probe + ": " + e.getMessage() + " (choose another --scratch)");
        }
    }

    private static Check roundTripCheck(BatonClient client, long writeNanos) throws InterruptedException {
        long[] reads = new long[READS];
        for (int i = 0; i < READS; i++) {
            long start = System.nanoTime();
            client.checkExists().forPath("/");
            reads[i] = System.nanoTime() - start;
        }
        java.util.Arrays.sort(reads);
        long start = System.nanoTime();
        client.sync().forPath("/");
        long sync = System.nanoTime() - start;
        long median = reads[READS / 2];
        long session = client.negotiatedSessionTimeout().toNanos();
        String detail = "read median " + ms(median) + " (max " + ms(reads[READS - 1]) + " of " + READS + "), sync " + ms(sync)
            + (writeNanos > 0 ? ", write " + ms(writeNanos) : "");
        long worst = Math.max(median, sync);
        if (worst > session / 3) {
            return new Check("round trip", "fail", detail + ": over a third of the session timeout; the client's pings cannot "
                + "keep the session alive reliably");
        }
        if (worst > session / 10) {
            return new Check("round trip", "warn", detail + ": over a tenth of the session timeout; expect suspended connections "
                + "under load");
        }
        return new Check("round trip", "ok", detail);
    }

    private static String ms(long nanos) {
        return String.format("%.1fms", nanos / 1e6);
    }

    private void print(Report report) {
        PrintWriter out = spec.commandLine().getOut();
        if (output.json) {
            Output.json(out, report);
            out.flush();
            return;
        }
        out.println("ensemble " + report.connect());
        Output.Table servers = new Output.Table("SERVER", "STATUS", "MODE", "VERSION", "ZXID", "SESSION TIMEOUTS", "WORDS NOT ALLOWED");
        for (Server s : report.servers()) {
            servers.row(s.server(), s.status(), s.mode(), s.version(), s.zxid(), s.minSessionTimeoutMillis() == null ? null
                : Durations.format(Duration.ofMillis(s.minSessionTimeoutMillis())) + ".." + Durations.format(Duration.ofMillis(s.maxSessionTimeoutMillis())),
                s.status().equals("unreachable") ? null : s.notAllowedWords().isEmpty() ? "none" : String.join(" ", s.notAllowedWords()));
        }
        servers.print(out, "  ");
        out.println();
        Output.Table checks = new Output.Table("CHECK", "RESULT", "DETAIL");
        report.checks().forEach(c -> checks.row(c.name(), c.result(), c.detail()));
        checks.print(out, "  ");
        long fails = report.checks().stream().filter(c -> c.result().equals("fail")).count();
        long warns = report.checks().stream().filter(c -> c.result().equals("warn")).count();
        out.println();
        out.println(fails == 0 && warns == 0 ? "all checks passed" : fails + " failed, " + warns + " warning(s)");
        out.flush();
    }
}
