package dev.baton.cli;

import dev.baton.framework.BatonClient;
import dev.baton.framework.BatonException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.net.SocketFactory;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.client.ConnectStringParser;
import org.apache.zookeeper.client.ZooKeeperSaslClient;
import picocli.CommandLine.Option;

/**
 * How a subcommand reaches the ensemble; shared by every subcommand that talks to one.
 *
 * <p>A command run by hand or from a script should not sit out a timeout when the answer is
 * already known: a host name that does not resolve fails at once (the client's start says so),
 * and when nothing listens at any server address — every connection refused — baton says so
 * within a fraction of a second instead of waiting for the connect timeout. Only a server that
 * does not answer at all (a dropped packet, a paused process) is waited for, up to the connect
 * timeout. Given explicitly, {@code --connect-timeout} also waits out refused connections, for a
 * script that starts the ensemble and goes on at once.
 */
public final class ConnectOptions {
    /** Where to connect when neither -s nor BATON_CONNECT says. */
    public static final String DEFAULT_CONNECT = "127.0.0.1:2181";
    /** How long to wait for a connection when --connect-timeout is not given. */
    static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(10);
    /** How long the client gets to connect before baton looks whether anything listens at all. */
    private static final Duration FIRST_TRY = Duration.ofMillis(250);
    /** How long one look at a server address may take (a refusal comes at once). */
    private static final int LOOK_MILLIS = 250;
    /** How often the SASL login's outcome is looked at. */
    private static final long SASL_POLL_MILLIS = 10;
    /** How long a four-letter word that looks for a TLS mismatch may take. */
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(1);

    @Option(names = {"-s", "--connect"}, paramLabel = "CONNECT",
        description = "ZooKeeper connect string host:port[,host:port...][/chroot] (default: $BATON_CONNECT, else "
            + DEFAULT_CONNECT + ").")
    String connect;

    @Option(names = "--session-timeout", paramLabel = "D", converter = Durations.class, defaultValue = "10s",
        description = "Session timeout to ask for (default: ${DEFAULT-VALUE}); a lock or leadership is given up within it "
            + "after a partition.")
    Duration sessionTimeout;

    @Option(names = "--connect-timeout", paramLabel = "D", converter = Durations.class,
        description = "How long to try to reach the ensemble before exiting 69 (default: 10s, but nothing listening fails "
            + "at once); given, it also waits for an ensemble still starting.")
    Duration connectTimeout;

    @Option(names = "--tls", defaultValue = "${env:BATON_TLS:-false}",
        description = "Connect over TLS ($BATON_TLS). Implied by --truststore or --keystore; without --truststore the "
            + "JDK's own trusted CAs are used.")
    boolean tls;

    @Option(names = "--truststore", paramLabel = "FILE", defaultValue = "${env:BATON_TLS_TRUSTSTORE}",
        description = "Trust store (PKCS#12 .p12, JKS .jks or PEM .pem) holding the CA that signed the servers' certificates "
            + "($BATON_TLS_TRUSTSTORE).")
    String trustStore;

    @Option(names = "--truststore-password", paramLabel = "PASSWORD", defaultValue = "${env:BATON_TLS_TRUSTSTORE_PASSWORD}",
        description = "Password of the trust store ($BATON_TLS_TRUSTSTORE_PASSWORD).")
    String trustStorePassword;

    @Option(names = "--keystore", paramLabel = "FILE", defaultValue = "${env:BATON_TLS_KEYSTORE}",
        description = "Key store with this client's certificate, for servers that require one; the certificate's subject is "
            + "then the client's x509 identity ($BATON_TLS_KEYSTORE).")
    String keyStore;

    @Option(names = "--keystore-password", paramLabel = "PASSWORD", defaultValue = "${env:BATON_TLS_KEYSTORE_PASSWORD}",
        description = "Password of the key store ($BATON_TLS_KEYSTORE_PASSWORD).")
    String keyStorePassword;

    @Option(names = "--auth", paramLabel = "AUTH", defaultValue = "${env:BATON_AUTH}",
        description = "Credentials added to the session, SCHEME:CREDENTIALS, for example digest:user:secret ($BATON_AUTH).")
    String auth;

    @Option(names = "--sasl-user", paramLabel = "USER", defaultValue = "${env:BATON_SASL_USER}",
        description = "Authenticate with SASL DIGEST-MD5 as USER ($BATON_SASL_USER); needs --sasl-password.")
    String saslUser;

    @Option(names = "--sasl-password", paramLabel = "PASSWORD", defaultValue = "${env:BATON_SASL_PASSWORD}",
        description = "Password of the SASL user ($BATON_SASL_PASSWORD).")
    String saslPassword;

    /** Sockets for four-letter words, made on first use from the TLS options. */
    private SocketFactory wordSockets;

    /** {@return the connect string in effect} */
    public String connectString() {
        if (connect != null) {
            return connect;
        }
        String env = System.getenv("BATON_CONNECT");
        return env == null || env.isBlank() ? DEFAULT_CONNECT : env;
    }

    /** How long to try to reach the ensemble. */
    Duration connectTimeout() {
        return connectTimeout != null ? connectTimeout : DEFAULT_CONNECT_TIMEOUT;
    }

    /**
     * {@return a started client, connected}
     *
     * @throws CliExit with {@link ExitCodes#UNAVAILABLE} when the ensemble cannot be reached (a
     *     host that does not resolve, nothing listening, no answer in time), or
     *     {@link ExitCodes#USAGE} for a malformed connect string
     */
    public BatonClient connect() {
        String where = connectString();
        // the client's builder would name its own fields (sessionTimeout, PT0S); the person typed the options
        if (sessionTimeout.isZero()) {
            throw new CliExit(ExitCodes.USAGE, "--session-timeout must be more than 0");
        }
        if (connectTimeout != null && connectTimeout.isZero()) {
            throw new CliExit(ExitCodes.USAGE, "--connect-timeout must be more than 0");
        }
        BatonClient client;
        try {
            BatonClient.Builder builder = BatonClient.builder().connectString(where).sessionTimeout(sessionTimeout)
                .connectionTimeout(connectTimeout());
            ClientSecurity.configure(builder, this);
            wordSockets(); // a trust or key store that cannot be opened is a usage error now, not a wait
            client = builder.build();
        } catch (IllegalArgumentException e) {
            throw new CliExit(ExitCodes.USAGE, e.getMessage());
        }
        try {
            client.start();
            long start = System.nanoTime();
            awaitConnected(client, where);
            if (saslUser != null) {
                awaitSasl(client, connectTimeout().minusNanos(System.nanoTime() - start));
            }
            return client;
        } catch (BatonException e) {
            abandon(client);
            throw new CliExit(ExitCodes.UNAVAILABLE, e.getMessage());
        } catch (InterruptedException e) {
            abandon(client);
            throw new CliExit(ExitCodes.INTERRUPTED, "interrupted while connecting");
        } catch (RuntimeException e) {
            abandon(client);
            throw e;
        }
    }

    /**
     * Closes a client that never connected without waiting: ZooKeeper's close asks the servers to
     * end a session there is none of, and waits for an answer that does not come; baton is about
     * to exit anyway.
     */
    private static void abandon(BatonClient client) {
        Thread closer = new Thread(client::close, "baton-abandon-client");
        closer.setDaemon(true);
        closer.start();
    }

    /** {@return sockets for four-letter words to the servers: TLS when asked for (the same stores), else plain} */
    SocketFactory wordSockets() {
        if (wordSockets == null) {
            wordSockets = ClientSecurity.wordSockets(this);
        }
        return wordSockets;
    }

    private void awaitConnected(BatonClient client, String where) throws InterruptedException {
        Duration timeout = connectTimeout();
        long start = System.nanoTime();
        if (!client.blockUntilConnected(FIRST_TRY)) {
            List<String> refusing = connectTimeout == null ? refusingServers(where) : null;
            if (refusing != null) {
                throw new CliExit(ExitCodes.UNAVAILABLE, "nothing is listening at " + String.join(", ", refusing)
                    + " (is the ensemble running? start one with 'baton server', or set -s or BATON_CONNECT)");
            }
            String mismatch = tlsMismatch(where);
            if (mismatch != null) {
                throw new CliExit(ExitCodes.UNAVAILABLE, "cannot reach the ensemble at " + where + ": " + mismatch);
            }
        }
        Duration left = timeout.minusNanos(System.nanoTime() - start);
        if (!client.blockUntilConnected(left.isNegative() ? Duration.ZERO : left)) {
            throw new CliExit(ExitCodes.UNAVAILABLE, "cannot reach the ensemble at " + where + " within " + Durations.format(timeout)
                + " (is it running? set -s or BATON_CONNECT)");
        }
    }

    /**
     * Waits for the SASL login's outcome. ZooKeeper's client authenticates after the connection is
     * made and holds every request until it is done; when the servers refuse the credentials it
     * reports {@code AuthFailed} once and stops, so the command's first request would wait forever.
     * The outcome comes within a round trip or two, so this polls for it briefly.
     */
    private void awaitSasl(BatonClient client, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + Math.max(timeout.toNanos(), Duration.ofSeconds(1).toNanos());
        while (true) {
            ZooKeeper zk = client.zookeeper();
            ZooKeeperSaslClient sasl = zk == null ? null : zk.getSaslClient();
            if (zk != null && zk.getState() == ZooKeeper.States.AUTH_FAILED || sasl != null && sasl.isFailed()) {
                throw new CliExit(ExitCodes.NO_PERMISSION, "the ensemble at " + connectString() + " refused SASL user '" + saslUser
                    + "' (a wrong --sasl-password or BATON_SASL_PASSWORD, or a user the servers do not know)");
            }
            if (sasl == null || sasl.isComplete()) {
                return; // no SASL on this handle (nothing to wait for), or logged in
            }
            if (System.nanoTime() - deadline > 0) {
                throw new CliExit(ExitCodes.UNAVAILABLE, "the ensemble at " + connectString() + " did not finish the SASL login of '"
                    + saslUser + "' within " + Durations.format(timeout));
            }
            Thread.sleep(SASL_POLL_MILLIS);
        }
    }

    /**
     * Why no server of {@code where} can be reached, if each one that answers disagrees with this
     * client about TLS — a handshake that fails (a CA the client does not trust, a client
     * certificate missing, a plain port), or a server that closes a plain connection without a
     * word (a TLS-only port) — or null when one answers properly or does not answer at all (worth
     * waiting for). ZooKeeper's client retries such a connection silently until its timeout; a
     * four-letter word over the same kind of socket tells the reason at once.
     */
    private String tlsMismatch(String where) {
        String first = null;
        for (InetSocketAddress server : ServerWords.servers(where)) {
            ServerWords.Answer answer = ServerWords.ask(server, "isro", wordSockets(), PROBE_TIMEOUT);
            if (answer.status() == ServerWords.Status.UNREACHABLE && !ServerWords.tlsMismatch(answer)) {
                continue; // nothing there (or it is silent): says nothing about TLS
            }
            if (!ServerWords.tlsMismatch(answer)) {
                return null;
            }
            first = first == null ? answer.server() + ": " + answer.text() : first;
        }
        return first;
    }

    /**
     * Every server address of {@code where} if each one refuses a connection (nothing listens
     * there), or null if one accepts or does not answer: then the client is worth waiting for.
     */
    static List<String> refusingServers(String where) {
        List<String> refusing = new ArrayList<>();
        for (InetSocketAddress server : new ConnectStringParser(where).getServerAddresses()) {
            InetAddress[] addresses;
            try {
                addresses = InetAddress.getAllByName(server.getHostString());
            } catch (UnknownHostException e) {
                continue; // the client's start already refused a connect string where no host resolves
            }
            for (InetAddress address : addresses) {
                try (Socket socket = new Socket()) {
                    socket.connect(new InetSocketAddress(address, server.getPort()), LOOK_MILLIS);
                    return null;
                } catch (ConnectException refused) {
                    // nothing listens at this address: look at the next
                } catch (IOException silent) {
                    return null;
                }
            }
            refusing.add(server.getHostString() + ":" + server.getPort());
        }
        return refusing.isEmpty() ? null : refusing;
    }
}
