package dev.baton.cli;

import dev.baton.server.FourLetterWords;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.NoRouteToHostException;
import java.net.SocketException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.SocketFactory;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSocketFactory;
import org.apache.zookeeper.client.ConnectStringParser;

/**
 * The servers' own view, through ZooKeeper's four-letter words (over plain TCP or TLS): asking
 * one, telling an answer from a refusal, and reading the answers of {@code srvr}, {@code conf}, {@code cons},
 * {@code dump} and {@code wchc} (ZooKeeper 3.5 to 3.9 formats).
 *
 * <p>A server answers a word that its {@code 4lw.commands.whitelist} leaves out with
 * "{@code <word> is not executed because it is not in the whitelist.}", and any word but
 * {@code srvr}-like ones while it has no quorum with "This ZooKeeper instance is not currently
 * serving requests"; both are told apart here so that the commands can say which it was.
 */
final class ServerWords {
    /** How long one word may take: the servers answer at once, or are in trouble. */
    static final Duration TIMEOUT = Duration.ofSeconds(3);

    private static final String NOT_ALLOWED = "is not executed because it is not in the whitelist";
    private static final String NOT_SERVING = "not currently serving requests";
    private static final String HANDSHAKE_FAILED = "TLS handshake failed: ";
    private static final String CLOSED_PLAIN = "the server closed the connection without a word: does this port serve TLS only? "
        + "Then pass --tls and --truststore (or BATON_TLS_TRUSTSTORE)";
    private static final String CLOSED_OVER_TLS = "the server closed the TLS connection without a word";
    /** One line of {@code cons}: {@code /127.0.0.1:37868[1](queued=0,...,sid=0x1...,...)}. */
    private static final Pattern CONNECTION = Pattern.compile("\\s*/?(\\S+?)\\[\\d+\\]\\((.*)\\)\\s*");
    private static final Pattern SESSION_ID = Pattern.compile("0x[0-9a-fA-F]+");

    /** How a server took a word. */
    enum Status {
        /** It answered. */
        ANSWERED,
        /** Its {@code 4lw.commands.whitelist} leaves the word out. */
        NOT_ALLOWED,
        /** It runs, but without a quorum it serves nothing. */
        NOT_SERVING,
        /** Nothing answered at its address. */
        UNREACHABLE
    }

    /**
     * A server's answer to a word.
     *
     * @param server host:port
     * @param word the word asked
     * @param status how it took it
     * @param text the answer, or why there is none
     */
    record Answer(String server, String word, Status status, String text) {
        boolean answered() {
            return status == Status.ANSWERED;
        }

        /** {@return for a person: why there is no answer} */
        String why() {
            return switch (status) {
                case ANSWERED -> "answered";
                case NOT_ALLOWED -> word + " is not allowed on " + server + " (4lw.commands.whitelist)";
                case NOT_SERVING -> server + " is not serving requests (no quorum?)";
                case UNREACHABLE -> server + " is unreachable"
                    + (tlsMismatch(this) ? " over " + (text.equals(CLOSED_PLAIN) ? "plain TCP" : "TLS") : "") + " (" + text + ")";
            };
        }
    }

    /**
     * One client connection from {@code cons}.
     *
     * @param server the server it is connected to
     * @param client the client's address
     * @param sessionId its session
     * @param timeoutMillis the session timeout the server granted
     * @param establishedMillis when the connection was made (epoch ms), or 0 if not said
     * @param lastOperation the last request's type ({@code PING}, {@code GETD}, ...)
     * @param maxLatencyMillis the slowest request's time on the server
     */
    record Connection(String server, String client, long sessionId, long timeoutMillis, long establishedMillis,
        String lastOperation, long maxLatencyMillis) {
    }

    private ServerWords() {
    }

    /**
     * {@return the servers of a connect string (the chroot, if any, does not matter here)}
     *
     * @throws CliExit with {@link ExitCodes#USAGE} for a malformed connect string
     */
    static List<InetSocketAddress> servers(String connectString) {
        try {
            return new ConnectStringParser(connectString).getServerAddresses();
        } catch (IllegalArgumentException e) {
            throw new CliExit(ExitCodes.USAGE, "bad connect string: " + e.getMessage());
        }
    }

    /** {@return host:port, as the connect string wrote it} */
    static String name(InetSocketAddress server) {
        return server.getHostString() + ":" + server.getPort();
    }

    /**
     * Asks {@code server} one word over a socket from {@code sockets}: plain, or TLS for an
     * ensemble that serves only TLS (ZooKeeper's Netty server takes four-letter words once the
     * handshake is done). Two answers that are really a mismatch of plain and TLS are told as such
     * ({@link #tlsMismatch(Answer)}): a handshake that fails, and a server that closes the
     * connection without a word, which is what a TLS-only port does to plain text.
     *
     * @param timeout how long the connection and the whole answer may take
     */
    static Answer ask(InetSocketAddress server, String word, SocketFactory sockets, Duration timeout) {
        String name = name(server);
        boolean tls = sockets instanceof SSLSocketFactory;
        try {
            String text = FourLetterWords.send(new InetSocketAddress(server.getHostString(), server.getPort()), word, timeout, sockets);
            if (text.isEmpty()) {
                return new Answer(name, word, Status.UNREACHABLE, tls ? CLOSED_OVER_TLS : CLOSED_PLAIN);
            }
            return new Answer(name, word, classify(text), text);
        } catch (SSLException e) {
            return new Answer(name, word, Status.UNREACHABLE, HANDSHAKE_FAILED + reason(e)
                + " (is --truststore the CA that signed the server's certificate, does the server want a client certificate "
                + "(--keystore), and does this port serve TLS?)");
        } catch (IOException e) {
            if (tls && e instanceof SocketException && !(e instanceof ConnectException) && !(e instanceof NoRouteToHostException)) {
                // a server that refuses the handshake may just drop the connection (reset, broken pipe)
                return new Answer(name, word, Status.UNREACHABLE, HANDSHAKE_FAILED + reason(e)
                    + " (does this port serve TLS, and does the server want a client certificate (--keystore)?)");
            }
            return new Answer(name, word, Status.UNREACHABLE, reason(e));
        }
    }

    /**
     * {@return whether {@code answer} failed because client and server disagree about TLS (or
     * about its certificates), rather than because nothing answers}
     */
    static boolean tlsMismatch(Answer answer) {
        return answer.status() == Status.UNREACHABLE
            && (answer.text().startsWith(HANDSHAKE_FAILED) || answer.text().equals(CLOSED_PLAIN) || answer.text().equals(CLOSED_OVER_TLS));
    }

    private static String reason(IOException e) {
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    /** {@return whether an answer is an answer, a refusal, or a server without quorum} */
    static Status classify(String text) {
        if (text.contains(NOT_ALLOWED)) {
            return Status.NOT_ALLOWED;
        }
        return text.contains(NOT_SERVING) ? Status.NOT_SERVING : Status.ANSWERED;
    }

    /** {@return the {@code key=value} lines of a {@code conf} answer} */
    static Map<String, String> properties(String conf) {
        Map<String, String> properties = new LinkedHashMap<>();
        for (String line : conf.split("\n")) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                properties.putIfAbsent(line.substring(0, eq).trim(), line.substring(eq + 1).trim());
            }
        }
        return properties;
    }

    /** {@return the version in a {@code srvr} answer: {@code 3.9.5} of "Zookeeper version: 3.9.5-293c..., built on ...", or null} */
    static String version(String srvr) {
        String line = FourLetterWords.field(srvr, "Zookeeper version");
        if (line == null) {
            return null;
        }
        int end = 0;
        while (end < line.length() && (Character.isDigit(line.charAt(end)) || line.charAt(end) == '.')) {
            end++;
        }
        return end == 0 ? line : line.substring(0, end);
    }

    /** {@return the client connections in a {@code cons} answer; the connection that asked (it has no session) is left out} */
    static List<Connection> connections(String server, String cons) {
        List<Connection> connections = new ArrayList<>();
        for (String line : cons.split("\n")) {
            Matcher m = CONNECTION.matcher(line);
            if (!m.matches()) {
                continue;
            }
            Map<String, String> fields = new LinkedHashMap<>();
            for (String pair : m.group(2).split(",")) {
                int eq = pair.indexOf('=');
                if (eq > 0) {
                    fields.put(pair.substring(0, eq), pair.substring(eq + 1));
                }
            }
            long sid = hex(fields.get("sid"));
            if (sid != 0) {
                connections.add(new Connection(server, m.group(1), sid, number(fields.get("to")), number(fields.get("est")),
                    fields.getOrDefault("lop", "-"), number(fields.get("maxlat"))));
            }
        }
        return connections;
    }

    /**
     * {@return each session of a {@code dump} answer with its ephemeral nodes, in the answer's order}
     * Every live session is there, with or without ephemerals: the leader's (and a standalone
     * server's) session tracker lists them all, a follower's lists the global sessions.
     */
    static Map<Long, List<String>> sessionsWithEphemerals(String dump) {
        Map<Long, List<String>> sessions = new LinkedHashMap<>();
        String section = "";
        Long current = null;
        for (String line : dump.split("\n")) {
            if (line.endsWith("dump:")) {
                section = line;
                current = null;
                continue;
            }
            String trimmed = line.trim();
            if (section.startsWith("SessionTracker")) {
                Matcher id = SESSION_ID.matcher(trimmed);
                if (id.lookingAt() && (trimmed.length() == id.end() || Character.isWhitespace(trimmed.charAt(id.end())))) {
                    sessions.putIfAbsent(hex(id.group()), new ArrayList<>());
                }
            } else if (section.startsWith("ephemeral")) {
                if (trimmed.startsWith("0x") && trimmed.endsWith(":")) {
                    current = hex(trimmed.substring(0, trimmed.length() - 1));
                    sessions.putIfAbsent(current, new ArrayList<>());
                } else if (current != null && trimmed.startsWith("/")) {
                    sessions.get(current).add(trimmed);
                }
            }
        }
        return sessions;
    }

    /** {@return each session of a {@code wchc} answer with the paths it watches} */
    static Map<Long, List<String>> watchesBySession(String wchc) {
        Map<Long, List<String>> watches = new LinkedHashMap<>();
        Long current = null;
        for (String line : wchc.split("\n")) {
            String trimmed = line.trim();
            if (trimmed.startsWith("0x")) {
                current = hex(trimmed);
                watches.putIfAbsent(current, new ArrayList<>());
            } else if (current != null && trimmed.startsWith("/")) {
                watches.get(current).add(trimmed);
            }
        }
        return watches;
    }

    private static long hex(String text) {
        if (text == null) {
            return 0;
        }
        try {
            return Long.parseUnsignedLong(text.startsWith("0x") ? text.substring(2) : text, 16);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static long number(String text) {
        if (text == null) {
            return 0;
        }
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
