package dev.baton.framework;

import dev.baton.framework.internal.ClientCore;
import dev.baton.framework.internal.Connection;
import dev.baton.framework.internal.Paths;
import dev.baton.framework.retry.ExponentialBackoffRetry;
import dev.baton.framework.retry.RetryPolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executor;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.client.ConnectStringParser;
import org.apache.zookeeper.client.ZKClientConfig;

/**
 * A ZooKeeper client that survives connection loss and session expiry: the base of every recipe.
 *
 * <p>It owns one ZooKeeper session at a time and reports its {@link ConnectionState} to
 * listeners in order on its own executor. Operations are fluent builders with a blocking form
 * (which throws {@link InterruptedException}) and a {@code CompletableFuture} form; both retry
 * recoverable failures with the {@link RetryPolicy} and fail with a typed {@link BatonException}.
 * After a session expiry the client builds a new session by itself and reports RECONNECTED.
 *
 * <p>Guarantees and caveats: with no connection, a blocking operation fails with
 * {@link ConnectionLossException} after the connection timeout instead of hanging. A create whose
 * reply is lost is retried; without protection or {@code idempotent()} the retry may report
 * NodeExists for the node the first attempt created (a sequential create may even create two):
 * recipes always use protection. Watchers and listeners never run on ZooKeeper's event thread.
 *
 * <pre>{@code
 * try (BatonClient client = BatonClient.builder().connectString("zk1:2181,zk2:2181,zk3:2181/app").build()) {
 *     client.start();
 *     client.blockUntilConnected(Duration.ofSeconds(10));
 *     client.create().creatingParentsIfNeeded().forPath("/config/feature", "on".getBytes(UTF_8));
 * }
 * }</pre>
 */
public interface BatonClient extends AutoCloseable {

    static Builder builder() {
        return new Builder();
    }

    /** Starts connecting (in the background). Operations wait for the connection. */
    void start();

    /** Waits until connected; returns false if {@code timeout} passes first. */
    boolean blockUntilConnected(Duration timeout) throws InterruptedException;

    /**
     * The current state: SUSPENDED before the first connection, LOST once the client is closed
     * (listeners are not told of a close: it is the caller's own act).
     */
    ConnectionState connectionState();

    /** The current session's id, 0 before the first connection. */
    long sessionId();

    /** The session timeout the servers granted (the requested one before the first connection). */
    Duration negotiatedSessionTimeout();

    /**
     * When ({@link System#nanoTime()}) the server this client is attached to last certainly heard
     * from the current session: the send time of the latest answered request, or, after a
     * disconnect, the earliest time the client could have last heard from it. That server may be
     * a follower cut off from the rest of the ensemble, which answers for a while after the
     * leader stopped hearing of the session: for a bound on when the session can expire, use
     * {@link #leaderContactNanos()}.
     */
    long lastServerContactNanos();

    /**
     * When ({@link System#nanoTime()}) the ensemble's leader, which alone expires sessions, last
     * certainly heard from the current session: advanced only by writes and syncs, which a
     * follower must forward to the leader, and kept fresh by a periodic sync while a lock or
     * leadership that relies on it is held or awaited. The session cannot expire before this
     * time plus the negotiated session timeout. Before the session's first such round trip, a
     * time at least a session timeout ago.
     */
    long leaderContactNanos();

    /** The current ZooKeeper handle, for what the builders do not cover. It changes after a session expiry. */
    ZooKeeper zookeeper();

    void addConnectionStateListener(ConnectionStateListener listener);

    void removeConnectionStateListener(ConnectionStateListener listener);

    /** Which connection states recipes built on this client treat as loss. */
    ErrorPolicy errorPolicy();

    /** Where listeners and watchers run: in order, never on ZooKeeper's event thread. */
    Executor eventExecutor();

    /**
     * Where this client's futures complete (a small pool, never ZooKeeper's thread). Recipes
     * complete their own futures here too, so a caller's continuation never blocks event delivery.
     */
    Executor asyncExecutor();

    /** The namespace every path is relative to, or null for none. */
    String namespace();

    /** A view of this client whose paths are relative to {@code namespace} (null or empty: none). It shares the connection. */
    BatonClient usingNamespace(String namespace);

    CreateBuilder create();

    GetDataBuilder getData();

    SetDataBuilder setData();

    DeleteBuilder delete();

    ExistsBuilder checkExists();

    GetChildrenBuilder getChildren();

    TransactionBuilder transaction();

    SyncBuilder sync();

    WatchesBuilder watches();

    /** Whether close() was called (on this client or the client this view belongs to). */
    boolean isClosed();

    /** Ends the session (its ephemeral nodes go) and stops every thread of the client. */
    @Override
    void close();

    /**
     * Configures a client. Each setting is checked as it is set, with a message naming the bad
     * value; {@link #build()} checks that a connect string was given.
     */
    final class Builder {
        /** Default session timeout: 30 s. */
        public static final Duration DEFAULT_SESSION_TIMEOUT = Duration.ofSeconds(30);
        /** Default connection timeout: 15 s. */
        public static final Duration DEFAULT_CONNECTION_TIMEOUT = Duration.ofSeconds(15);
        /** Default largest request: ZooKeeper's {@code jute.maxbuffer} (1 MiB - 1 unless set). */
        public static final int DEFAULT_MAX_REQUEST_BYTES = Integer.getInteger("jute.maxbuffer", 0xfffff);

        private String connectString;
        private Duration sessionTimeout = DEFAULT_SESSION_TIMEOUT;
        private Duration connectionTimeout = DEFAULT_CONNECTION_TIMEOUT;
        private RetryPolicy retryPolicy = new ExponentialBackoffRetry(Duration.ofMillis(100), 5, Duration.ofSeconds(5));
        private String namespace;
        private final List<Connection.Auth> auths = new ArrayList<>();
        private AclProvider aclProvider = AclProvider.OPEN;
        private ZKClientConfig clientConfig;
        private boolean canBeReadOnly;
        private Executor eventExecutor;
        private ErrorPolicy errorPolicy = ErrorPolicy.STANDARD;
        private boolean lostAfterSuspendedTimeout = true;
        private int maxRequestBytes = DEFAULT_MAX_REQUEST_BYTES;

        private Builder() {
        }

        /**
         * The ensemble: {@code host:port[,host:port...][/chroot]}, for example
         * {@code "zk1:2181,zk2:2181,zk3:2181/app"}.
         */
        public Builder connectString(String connectString) {
            Objects.requireNonNull(connectString, "connectString");
            if (connectString.isBlank()) {
                throw new IllegalArgumentException("connectString must name at least one host:port, was '" + connectString + "'");
            }
            try {
                ConnectStringParser parsed = new ConnectStringParser(connectString);
                if (parsed.getServerAddresses().isEmpty()) {
                    throw new IllegalArgumentException("no host:port in it");
                }
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("connectString '" + connectString + "' is not host:port[,host:port...][/chroot]: "
                    + e.getMessage(), e);
            }
            this.connectString = connectString;
            return this;
        }

        /** Requested session timeout (the servers clamp it to their bounds). Default 30 s. */
        public Builder sessionTimeout(Duration timeout) {
            this.sessionTimeout = positive("sessionTimeout", timeout);
            if (timeout.toMillis() > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("sessionTimeout is too large: " + timeout);
            }
            return this;
        }

        /** How long an operation waits for a connection before failing with ConnectionLossException. Default 15 s. */
        public Builder connectionTimeout(Duration timeout) {
            this.connectionTimeout = positive("connectionTimeout", timeout);
            return this;
        }

        /** Retries of recoverable failures. Default: exponential backoff from 100 ms, 5 retries, 5 s cap. */
        public Builder retryPolicy(RetryPolicy policy) {
            this.retryPolicy = Objects.requireNonNull(policy, "retryPolicy");
            return this;
        }

        /** Makes every path relative to {@code /namespace} (created when first needed). */
        public Builder namespace(String namespace) {
            this.namespace = Paths.validateNamespace(namespace);
            return this;
        }

        /** Credentials for every session, e.g. {@code authorization("digest", "user:secret".getBytes(UTF_8))}. */
        public Builder authorization(String scheme, byte[] auth) {
            Objects.requireNonNull(scheme, "scheme");
            Objects.requireNonNull(auth, "auth");
            if (scheme.isBlank()) {
                throw new IllegalArgumentException("authorization scheme must not be blank");
            }
            auths.add(new Connection.Auth(scheme, auth.clone()));
            return this;
        }

        /** ACLs for nodes created without one. Default {@link AclProvider#OPEN}. */
        public Builder aclProvider(AclProvider provider) {
            this.aclProvider = Objects.requireNonNull(provider, "aclProvider");
            return this;
        }

        /** ZooKeeper client settings passed through to every handle (TLS, SASL, socket implementation). */
        public Builder zkClientConfig(ZKClientConfig config) {
            this.clientConfig = Objects.requireNonNull(config, "zkClientConfig");
            return this;
        }

        /** Allows connecting to servers cut off from their quorum, for reads (state READ_ONLY). Default off. */
        public Builder canBeReadOnly(boolean allowed) {
            this.canBeReadOnly = allowed;
            return this;
        }

        /**
         * Where listeners and watchers run (in order, one at a time, even on a pool). Default: a
         * thread of the client's own.
         */
        public Builder eventExecutor(Executor executor) {
            this.eventExecutor = Objects.requireNonNull(executor, "eventExecutor");
            return this;
        }

        /** Which connection states recipes treat as loss. Default {@link ErrorPolicy#STANDARD}. */
        public Builder errorPolicy(ErrorPolicy policy) {
            this.errorPolicy = Objects.requireNonNull(policy, "errorPolicy");
            return this;
        }

        /**
         * Whether SUSPENDED lasting longer than the negotiated session timeout is reported as LOST
         * (and the session abandoned for a new one) without waiting for the servers to say so.
         * Default true.
         */
        public Builder lostAfterSuspendedTimeout(boolean enabled) {
            this.lostAfterSuspendedTimeout = enabled;
            return this;
        }

        /**
         * The largest request the servers accept ({@code jute.maxbuffer} on the servers). Data that
         * would exceed it fails with {@link DataTooLargeException} before it is sent.
         */
        public Builder maxRequestBytes(int bytes) {
            if (bytes < 1024) {
                throw new IllegalArgumentException("maxRequestBytes must be at least 1024, was " + bytes);
            }
            this.maxRequestBytes = bytes;
            return this;
        }

        /** Builds the client (not yet started). */
        public BatonClient build() {
            if (connectString == null) {
                throw new IllegalStateException("connectString is required: BatonClient.builder().connectString(\"host:2181\")");
            }
            Connection.Settings settings = new Connection.Settings(connectString, sessionTimeout, connectionTimeout,
                canBeReadOnly, clientConfig, List.copyOf(auths), lostAfterSuspendedTimeout);
            return ClientCore.create(new ClientCore.Config(settings, retryPolicy, namespace, aclProvider, eventExecutor,
                errorPolicy, maxRequestBytes));
        }

        private static Duration positive(String name, Duration value) {
            Objects.requireNonNull(value, name);
            if (value.isNegative() || value.isZero()) {
                throw new IllegalArgumentException(name + " must be positive, was " + value);
            }
            return value;
        }
    }
}
