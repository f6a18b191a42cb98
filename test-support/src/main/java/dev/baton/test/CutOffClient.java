package dev.baton.test;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ConnectionLossException;
import dev.baton.server.EmbeddedEnsemble;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Assertions;

/**
 * A client started while its road to the ensemble is cut: the process of a fleet that boots
 * during a ZooKeeper outage. For tests that a recipe's {@code start()} returns without a
 * connection and does its work once the connection comes.
 *
 * <p>The client reaches the ensemble only through a {@link ClientLink}, cut before the client is
 * started, so it has never had a session. {@link #assertStartsPromptly} runs a start and fails
 * unless it returned within half the client's connection timeout (the time an operation waits
 * for a connection before it fails); {@link #connect()} heals the link and waits for the session.
 *
 * <pre>{@code
 * try (CutOffClient cutOff = CutOffClient.start(ensemble)) {
 *     LeaderLatch latch = new LeaderLatch(cutOff.client(), "/election", "a");
 *     cutOff.assertStartsPromptly("latch", latch::start);
 *     cutOff.outlastConnectionTimeout();   // an outage longer than the connection timeout
 *     cutOff.connect();
 *     assertThat(latch.await(Duration.ofSeconds(20))).isTrue();
 * }
 * }</pre>
 */
public final class CutOffClient implements AutoCloseable {
    /**
     * The client's connection timeout: what a start that waits for a connection would wait, and
     * short, so that a test can outlast it ({@link #outlastConnectionTimeout()}) cheaply.
     */
    public static final Duration CONNECTION_TIMEOUT = Duration.ofSeconds(3);

    /** A start that may block, as recipes' starts do. */
    @FunctionalInterface
    public interface Start {
        /**
         * Starts the recipe, as a user would.
         *
         * @throws Exception whatever the start throws; {@link #assertStartsPromptly} passes it on
         */
        void run() throws Exception;
    }

    private final ClientLink link;
    private final BatonClient client;

    private CutOffClient(ClientLink link, BatonClient client) {
        this.link = link;
        this.client = client;
    }

    /**
     * Starts a client of an ensemble through a link cut before the start: it is connecting, and
     * cannot until {@link #connect()}.
     *
     * @param ensemble the ensemble the client will reach once the link heals
     * @return the started, unconnected client and its link (session timeout 10 s, connection
     *     timeout {@link #CONNECTION_TIMEOUT}); {@link #close()} closes both
     * @throws NullPointerException if {@code ensemble} is null
     */
    public static CutOffClient start(EmbeddedEnsemble ensemble) {
        Objects.requireNonNull(ensemble, "ensemble");
        ClientLink link = ClientLink.to(ensemble);
        link.cut();
        BatonClient client = TestSecurity.apply(BatonClient.builder()
            .connectString(link.connectString())
            .sessionTimeout(Duration.ofSeconds(10))
            .connectionTimeout(CONNECTION_TIMEOUT))
            .build();
        client.start();
        return new CutOffClient(link, client);
    }

    /**
     * The client, to build the recipe under test on.
     *
     * @return the started client; not connected until {@link #connect()}
     */
    public BatonClient client() {
        return client;
    }

    /**
     * Runs {@code start} and fails unless it returned within half of {@link #CONNECTION_TIMEOUT}
     * without throwing, while the client had no connection.
     *
     * @param what the recipe's name, for the failure message
     * @param start the start under test
     * @throws Exception whatever {@code start} throws
     * @throws AssertionError (JUnit's assertion failure) if the client was already connected, or
     *     the start took half the connection timeout or longer
     */
    public void assertStartsPromptly(String what, Start start) throws Exception {
        Assertions.assertFalse(client.connectionState().isConnected(), "the client must not be connected before " + what + " starts");
        long began = System.nanoTime();
        start.run();
        Duration took = Duration.ofNanos(System.nanoTime() - began);
        Assertions.assertTrue(took.compareTo(CONNECTION_TIMEOUT.dividedBy(2)) < 0,
            () -> what + ".start() took " + took + " without a connection; expected well under the connection timeout of "
                + CONNECTION_TIMEOUT);
    }

    /**
     * Waits until an operation issued now has failed for lack of a connection. Every operation a
     * recipe issued before has then waited out its connection timeout as well (the client's
     * timers fire in deadline order), so what follows tests an outage longer than the
     * connection timeout: the recipe must recover from its failed operations, not merely see
     * them complete late.
     *
     * @throws IllegalStateException if the operation succeeded (the link is not cut), failed for
     *     another reason, or had not failed within four connection timeouts
     * @throws InterruptedException if interrupted while waiting for the failure
     */
    public void outlastConnectionTimeout() throws InterruptedException {
        try {
            client.checkExists().forPathAsync("/").get(CONNECTION_TIMEOUT.multipliedBy(4).toMillis(), TimeUnit.MILLISECONDS);
            throw new IllegalStateException("the client reached the ensemble although its link is cut");
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof ConnectionLossException)) {
                throw new IllegalStateException("expected a failure for lack of a connection, got " + e.getCause(), e.getCause());
            }
        } catch (TimeoutException e) {
            throw new IllegalStateException("an operation without a connection did not fail within " + CONNECTION_TIMEOUT.multipliedBy(4), e);
        }
    }

    /**
     * Heals the link and waits (up to {@link TestClients#CONNECT_TIMEOUT}) until the client is
     * connected.
     *
     * @throws IllegalStateException if it did not connect in that time
     * @throws InterruptedException if interrupted while waiting for the connection
     */
    public void connect() throws InterruptedException {
        link.heal();
        if (!client.blockUntilConnected(TestClients.CONNECT_TIMEOUT)) {
            throw new IllegalStateException("the client did not connect within " + TestClients.CONNECT_TIMEOUT + " after the link healed");
        }
    }

    /** Closes the client, then the link's proxies (even if closing the client failed). */
    @Override
    public void close() {
        try {
            client.close();
        } finally {
            link.close();
        }
    }
}
