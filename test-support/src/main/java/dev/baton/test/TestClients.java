package dev.baton.test;

import dev.baton.framework.BatonClient;
import java.time.Duration;

/**
 * Clients for tests: built, started and connected in one call. While a secure ensemble is up
 * ({@code @EnsembleTest(tls = true)}), each client connects over TLS with the test identity's
 * certificate and makes its nodes with {@code CREATOR_ALL} ({@link TestSecurity}).
 */
public final class TestClients {
    /** How long a test client may take to connect before the test fails. */
    public static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(30);

    private TestClients() {
    }

    /**
     * Builds, starts and waits for the connection; the caller closes the client.
     *
     * @param builder a client's settings
     * @return the client, connected
     */
    public static BatonClient started(BatonClient.Builder builder) {
        return startedAsIs(TestSecurity.apply(builder));
    }

    /** Like {@link #started(BatonClient.Builder)}, with the builder's own security settings. */
    static BatonClient startedAsIs(BatonClient.Builder builder) {
        BatonClient client = builder.build();
        client.start();
        try {
            if (!client.blockUntilConnected(CONNECT_TIMEOUT)) {
                client.close();
                throw new IllegalStateException("test client did not connect within " + CONNECT_TIMEOUT + ": " + client);
            }
        } catch (InterruptedException e) {
            client.close();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while connecting a test client", e);
        }
        return client;
    }

    /**
     * {@return a started, connected client of {@code connectString} with a {@code sessionTimeout} session}
     *
     * @param connectString the ensemble's connect string
     * @param sessionTimeout the session timeout to ask for
     */
    public static BatonClient started(String connectString, Duration sessionTimeout) {
        return started(BatonClient.builder().connectString(connectString).sessionTimeout(sessionTimeout));
    }
}
