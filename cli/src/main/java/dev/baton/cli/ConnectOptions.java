package dev.baton.cli;

import dev.baton.framework.BatonClient;
import java.time.Duration;
import picocli.CommandLine.Option;

/** How a subcommand reaches the ensemble; shared by every subcommand that talks to one. */
public final class ConnectOptions {
    /** Where to connect when neither -s nor BATON_CONNECT says. */
    public static final String DEFAULT_CONNECT = "127.0.0.1:2181";

    @Option(names = {"-s", "--connect"}, paramLabel = "CONNECT",
        description = "ZooKeeper connect string host:port[,host:port...][/chroot] (default: $BATON_CONNECT or " + DEFAULT_CONNECT + ")")
    String connect;

    @Option(names = "--session-timeout", paramLabel = "D", converter = Durations.class, defaultValue = "10s",
        description = "session timeout (default: ${DEFAULT-VALUE}); a lock or leadership is given up within it after a partition")
    Duration sessionTimeout;

    @Option(names = "--connect-timeout", paramLabel = "D", converter = Durations.class, defaultValue = "10s",
        description = "how long to try to reach the ensemble before exiting 69 (default: ${DEFAULT-VALUE})")
    Duration connectTimeout;

    /** {@return the connect string in effect} */
    public String connectString() {
        if (connect != null) {
            return connect;
        }
        String env = System.getenv("BATON_CONNECT");
        return env == null || env.isBlank() ? DEFAULT_CONNECT : env;
    }

    /**
     * {@return a started client, connected}
     *
     * @throws CliExit with {@link ExitCodes#UNAVAILABLE} when the ensemble cannot be reached in time,
     *     or {@link ExitCodes#USAGE} for a malformed connect string
     */
    public BatonClient connect() {
        BatonClient client;
        try {
            client = BatonClient.builder().connectString(connectString()).sessionTimeout(sessionTimeout)
                .connectionTimeout(connectTimeout).build();
        } catch (IllegalArgumentException e) {
            throw new CliExit(ExitCodes.USAGE, e.getMessage());
        }
        client.start();
        try {
            if (!client.blockUntilConnected(connectTimeout)) {
                client.close();
                throw new CliExit(ExitCodes.UNAVAILABLE, "cannot reach the ensemble at " + connectString()
                    + " within " + Durations.format(connectTimeout) + " (is it running? set -s or BATON_CONNECT)");
            }
        } catch (InterruptedException e) {
            client.close();
            throw new CliExit(ExitCodes.INTERRUPTED, "interrupted while connecting");
        }
        return client;
    }
}
