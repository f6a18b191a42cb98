package dev.baton.framework;

import dev.baton.framework.internal.ClientCore;
import dev.baton.framework.internal.ConnectStrings;
import dev.baton.framework.internal.ConnectionSettings;
import dev.baton.framework.internal.Paths;
import dev.baton.framework.retry.ExponentialBackoffRetry;
import dev.baton.framework.retry.RetryPolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executor;
import org.apache.zookeeper.ZooKeeper;
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

    /**
     * {@return a builder of a client: set at least the connect string, then {@code build()} and {@code
     * start()}}
     */
    static Builder builder() {
        return new Builder();
    }

    /**
     * Starts connecting (in the background). Operations wait for the connection. Servers that
     * are not up yet are tried again until they are: a client may start before its ensemble.
     *
     * @throws BatonException if no host of the connect string resolves (a name that does not
     *     resolve would otherwise be retried for ever); the client may be started again
     */
    void start();

    /**
     * Waits until connected; returns false if {@code timeout} passes first.
     *
     * @param timeout how long to wait at most (a timeout too long to count waits without limit)
     * @return whether the client is connected
     * @throws InterruptedException if the calling thread is interrupted while it waits
     */
    boolean blockUntilConnected(Duration timeout) throws InterruptedException;

    /**
     * {@return the current state: SUSPENDED before the first connection, LOST once the client is closed
     * (listeners are not told of a close: it is the caller's own act; only a {@link ClientClosingListener}
     * is)}
     */
    ConnectionState connectionState();

    /** {@return the current session's id, 0 before the first connection} */
    long sessionId();

    /**
     * The session timeout the servers last granted, which may be less than the one asked for (the
     * servers clamp it to their bounds). It stays the granted one while disconnected; before the
     * first connection it is the requested one.
     *
     * @return the granted session timeout (the requested one before the first connection)
     */
    Duration negotiatedSessionTimeout();

    /**
     * {@return when ({@link System#nanoTime()}) the server this client is attached to last certainly
     * heard from the current session: the send time of the latest answered request, or, after a
     * disconnect, the earliest time the client could have last heard from it} That server may be a
     * follower cut off from the rest of the ensemble, which answers for a while after the leader
     * stopped hearing of the session: for a bound on when the session can expire, use
     * {@link #leaderContactNanos()}.
     */
    long lastServerContactNanos();

    /**
     * {@return when ({@link System#nanoTime()}) the ensemble's leader, which alone expires sessions,
     * last certainly heard from the current session} Advanced only by writes and syncs, which a
     * follower must forward to the leader, and kept fresh by a periodic sync while a lock or
     * leadership that relies on it is held or awaited. The session cannot expire before this
     * time plus the negotiated session timeout. Before the session's first such round trip, a
     * time at least a session timeout ago.
     */
    long leaderContactNanos();

    /**
     * {@return what the server this client's session is connected to supports, as learned at the session's
     * first connection (see {@link ServerCapabilities}): {@link ServerCapabilities#unknown()} until then}
     * Learning takes a round trip or two after the connection, in the background; recipes take their
     * fast paths only once a feature is known to be supported. Cheap (no request is sent).
     */
    default ServerCapabilities serverCapabilities() {
        return ServerCapabilities.unknown();
    }

    /**
     * {@return the current ZooKeeper handle, for what the builders do not cover} It changes after a session expiry.
     * A persistent or persistent recursive watch set through it goes when {@link WatchesBuilder#remove} takes the
     * last of this client's watchers of that kind at the same path (its {@code removeAllWatches} takes them all).
     */
    ZooKeeper zookeeper();

    /**
     * Adds a listener of connection state changes; it runs on the event executor, in order. A
     * {@link ClientClosingListener} is also told when the client is closing, before its session ends.
     *
     * @param listener the listener to add
     */
    void addConnectionStateListener(ConnectionStateListener listener);

    /**
     * Removes a listener; it hears nothing more.
     *
     * @param listener the listener to remove
     */
    void removeConnectionStateListener(ConnectionStateListener listener);

    /** {@return which connection states recipes built on this client treat as loss} */
    ErrorPolicy errorPolicy();

    /**
     * {@return this client's clock ({@link Builder#ticker}): its retry loop and the deadlines recipes
     * make with {@link Deadline#after(Duration, Ticker)} read it} By default {@link Ticker#system()}.
     */
    default Ticker ticker() {
        return Ticker.system();
    }

    /** {@return where listeners and watchers run: in order, never on ZooKeeper's event thread} */
    Executor eventExecutor();

    /**
     * {@return where this client's futures complete (a small fork-join pool, never ZooKeeper's thread)}
     * Recipes complete their own futures here too, so a caller's continuation never blocks event
     * delivery. A continuation ({@code thenApply} and the like) runs on this pool, which also runs the
     * contention engine's steps: Baton's blocking calls made there tell the pool they wait (through
     * futures or {@link Blocking#managed}), so it lends a spare thread meanwhile; waits of the caller's
     * own do not, and belong on an executor of the caller's ({@code thenApplyAsync(fn, executor)}).
     */
    Executor asyncExecutor();

    /** {@return the namespace every path is relative to, or null for none} */
    String namespace();

    /**
     * {@return a view of this client whose paths are relative to {@code namespace} (null or empty: none)} It
     * shares the connection.
     *
     * @param namespace a relative path such as {@code "app"} or {@code "app/v2"}; null or empty for none
     */
    BatonClient usingNamespace(String namespace);

    /** {@return a new create: set its options, then run it with {@code forPath}} */
    CreateBuilder create();

    /** {@return a new read of a node's data: run it with {@code forPath}} */
    GetDataBuilder getData();

    /** {@return a new write of a node's data: run it with {@code forPath}} */
    SetDataBuilder setData();

    /** {@return a new delete: set its options, then run it with {@code forPath}} */
    DeleteBuilder delete();

    /** {@return a new existence check: run it with {@code forPath}} */
    ExistsBuilder checkExists();

    /** {@return a new listing of a node's children: run it with {@code forPath}} */
    GetChildrenBuilder getChildren();

    /** {@return a new transaction: add operations, then {@code commit()}} */
    TransactionBuilder transaction();

    /** {@return a new sync, which makes the connected server catch up with the leader} */
    SyncBuilder sync();

    /** {@return the persistent watches of this client: add and remove them} */
    WatchesBuilder watches();

    /** {@return whether close() was called (on this client or the client this view belongs to)} */
    boolean isClosed();

    /**
     * {@return whether start() was called (on this client or the client this view belongs to); it
     * stays true once the client is closed} Curator's {@code getState() == STARTED} is {@code
     * isStarted() && !isClosed()}. A recipe started on a client that is not started refuses with
     * {@link ClientNotStartedException}, as every operation does: see {@link #requireStarted}.
     */
    boolean isStarted();

    /**
     * Refuses {@code operation} unless this client is started and not closed (Curator's {@code
     * getState() == STARTED}): the one check every operation makes before anything is sent, for
     * recipes and caches to make in their {@code start()}, before they change any state of their
     * own. A recipe that waits for a connection should refuse a client never started rather than
     * wait for ever: such a client never connects. Both exceptions name {@code operation} and
     * {@code path} in their message ({@code start the leader latch /app/leader: the client is not
     * started; call start() first}).
     *
     * <p>A closed client is refused with {@link ClientClosedException}, whether it was started or
     * not: {@code start()} cannot help it any more. A recipe that must fail on a closed client in
     * its own way (by the error of its first request, say) checks {@link #isClosed()} first and
     * calls this only on an open client.
     *
     * <pre>{@code
     * public void start() {
     *     client.requireStarted("start the inventory sync", path);   // nothing changed yet: the recipe can start later
     *     ...
     * }
     * }</pre>
     *
     * @param operation what was asked, as the message should say it ({@code "start the leader latch"})
     * @param path the path it was asked for, or null
     * @throws ClientClosedException if {@link #close()} was called
     * @throws ClientNotStartedException if {@link #start()} was never called (start it, then ask again)
     */
    default void requireStarted(String operation, String path) {
        if (isClosed()) {
            throw new ClientClosedException(operation, path);
        }
        if (!isStarted()) {
            throw new ClientNotStartedException(operation, path);
        }
    }

    /**
     * {@return a snapshot of this client's health} The rule for healthy is {@link ClientHealth}'s.
     * Cheap (no request is sent): a health endpoint may call it on every probe.
     */
    ClientHealth health();

    /**
     * Adds an observer of this client and of the recipes built on it (on any of its namespace
     * views); see {@link BatonObserver}. {@code baton-metrics} adds one to feed Micrometer.
     *
     * @param observer told of requests, retries and recipe events from now on
     */
    void addObserver(BatonObserver observer);

    /**
     * Removes an observer added by {@link #addObserver}; no effect if it was not added.
     *
     * @param observer the observer to remove
     */
    void removeObserver(BatonObserver observer);

    /**
     * {@return what recipes report their events to} {@link BatonObserver#NONE} while no observer is
     * added, so a report costs one empty call. For recipe implementations; users add observers.
     */
    BatonObserver observer();

    /**
     * Ends the session (its ephemeral nodes go) and stops every thread of the client. First, on this
     * thread, each {@link ClientClosingListener} ends what rests on the session (a leader latch or
     * selector built on this client steps down, as on its own {@code close()}), and this waits for
     * them: so the recipes may be closed before or after their client. This is why a selector's
     * {@code takeLeadership} that ignores its interrupt, or a latch listener's {@code notLeader()} that
     * does not return, holds up this call, for as long as it runs (in a shutdown hook: the JVM's exit).
     */
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
        private final List<ConnectionSettings.Auth> auths = new ArrayList<>();
        private AclProvider aclProvider = AclProvider.OPEN;
        private ZKClientConfig clientConfig;
        private boolean canBeReadOnly;
        private Executor eventExecutor;
        private ErrorPolicy errorPolicy = ErrorPolicy.STANDARD;
        private boolean lostAfterSuspendedTimeout = true;
        private int maxRequestBytes = DEFAULT_MAX_REQUEST_BYTES;
        private Ticker ticker = Ticker.system();
        private ServerCapabilities assumedCapabilities;

        private Builder() {
        }

        /**
         * The ensemble: {@code host:port[,host:port...][/chroot]}, for example
         * {@code "zk1:2181,zk2:2181,zk3:2181/app"}. An empty element ({@code "a:1,,b:2"}) or host
         * ({@code ":2181"}) is refused; host names are resolved by {@link BatonClient#start()}.
         *
         * @param connectString the ensemble: {@code host:port[,host:port...][/chroot]}, for example {@code
         *     "zk1:2181,zk2:2181,zk3:2181/app"}
         * @return this builder
         */
        public Builder connectString(String connectString) {
            Objects.requireNonNull(connectString, "connectString");
            ConnectStrings.servers(connectString); // an empty element or host is refused here, not skipped
            this.connectString = connectString;
            return this;
        }

        /**
         * Requested session timeout (the servers clamp it to their bounds). Default 30 s.
         *
         * @param timeout the session timeout to ask the servers for, positive
         * @return this builder
         */
        public Builder sessionTimeout(Duration timeout) {
            this.sessionTimeout = positive("sessionTimeout", timeout);
            if (timeout.toMillis() > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("sessionTimeout is too large: " + timeout);
            }
            return this;
        }

        /**
         * How long an operation waits for a connection before failing with ConnectionLossException. Default
         * 15 s.
         *
         * @param timeout how long an operation waits for a connection before failing with
         *     ConnectionLossException
         * @return this builder
         */
        public Builder connectionTimeout(Duration timeout) {
            this.connectionTimeout = positive("connectionTimeout", timeout);
            return this;
        }

        /**
         * Retries of recoverable failures. Default: exponential backoff from 100 ms, 5 retries, 5 s cap.
         *
         * @param policy decides whether and when a failed operation is tried again
         * @return this builder
         */
        public Builder retryPolicy(RetryPolicy policy) {
            this.retryPolicy = Objects.requireNonNull(policy, "retryPolicy");
            return this;
        }

        /**
         * Makes every path relative to {@code /namespace} (created when first needed).
         *
         * @param namespace a relative path such as {@code "app"}; null or empty for none
         * @return this builder
         */
        public Builder namespace(String namespace) {
            this.namespace = Paths.validateNamespace(namespace);
            return this;
        }

        /**
         * Credentials for every session, e.g. {@code authorization("digest", "user:secret".getBytes(UTF_8))}.
         *
         * @param scheme the authentication scheme, such as {@code "digest"}
         * @param auth the credentials, as the scheme expects them
         * @return this builder
         */
        public Builder authorization(String scheme, byte[] auth) {
            Objects.requireNonNull(scheme, "scheme");
            Objects.requireNonNull(auth, "auth");
            if (scheme.isBlank()) {
                throw new IllegalArgumentException("authorization scheme must not be blank");
            }
            auths.add(new ConnectionSettings.Auth(scheme, auth.clone()));
            return this;
        }

        /**
         * ACLs for nodes created without one. Default {@link AclProvider#OPEN}.
         *
         * @param provider gives the ACL of each node created without one
         * @return this builder
         */
        public Builder aclProvider(AclProvider provider) {
            this.aclProvider = Objects.requireNonNull(provider, "aclProvider");
            return this;
        }

        /**
         * ZooKeeper client settings passed through to every handle (TLS, SASL, socket implementation).
         *
         * @param config ZooKeeper's client settings
         * @return this builder
         */
        public Builder zkClientConfig(ZKClientConfig config) {
            this.clientConfig = Objects.requireNonNull(config, "zkClientConfig");
            return this;
        }

        /**
         * Allows connecting to servers cut off from their quorum, for reads (state READ_ONLY). Default off.
         *
         * @param allowed whether to connect to a server without a quorum, for reads
         * @return this builder
         */
        public Builder canBeReadOnly(boolean allowed) {
            this.canBeReadOnly = allowed;
            return this;
        }

        /**
         * Where listeners and watchers run (in order, one at a time, even on a pool). Default: a
         * thread of the client's own. If it refuses a call ({@code RejectedExecutionException}, a
         * bounded pool that is full) while the client is open, nothing is lost: the calls wait, in
         * order, and are handed to it again at the next event and on the client's scheduler (after
         * 10 ms, doubling to at most a second) until it takes them, with a WARN at most every 30 s.
         * Only once the client is closed, or the executor is an {@code ExecutorService} that is shut
         * down, is what it refused dropped. See docs/framework.md, "Threads".
         *
         * @param executor where listeners and watchers run (in order, one at a time, even on a pool)
         * @return this builder
         */
        public Builder eventExecutor(Executor executor) {
            this.eventExecutor = Objects.requireNonNull(executor, "eventExecutor");
            return this;
        }

        /**
         * Which connection states recipes treat as loss. Default {@link ErrorPolicy#STANDARD}.
         *
         * @param policy which connection states recipes treat as loss
         * @return this builder
         */
        public Builder errorPolicy(ErrorPolicy policy) {
            this.errorPolicy = Objects.requireNonNull(policy, "errorPolicy");
            return this;
        }

        /**
         * The client's clock, read by its retry loop and by the deadlines recipes make from it. Default
         * {@link Ticker#system()}; a test may pass one it advances itself.
         *
         * @param ticker the clock
         * @return this builder
         */
        public Builder ticker(Ticker ticker) {
            this.ticker = Objects.requireNonNull(ticker, "ticker");
            return this;
        }

        /**
         * Tells the client what the servers support instead of letting it learn that at each new
         * session ({@link ServerCapabilities}): no four-letter word and no probe is sent, and
         * {@link BatonClient#serverCapabilities()} returns {@code capabilities}. For a fleet in a
         * rolling upgrade (assume the oldest release, for example
         * {@code ServerCapabilities.ofVersion("3.8.4")}), or servers that must not be probed.
         * Default: learned.
         *
         * @param capabilities what to assume the servers support
         * @return this builder
         */
        public Builder assumeServerCapabilities(ServerCapabilities capabilities) {
            this.assumedCapabilities = Objects.requireNonNull(capabilities, "capabilities");
            return this;
        }

        /**
         * Whether SUSPENDED lasting longer than the negotiated session timeout is reported as LOST
         * (and the session abandoned for a new one) without waiting for the servers to say so.
         * Default true.
         *
         * @param enabled whether SUSPENDED lasting longer than the negotiated session timeout is reported as
         *     LOST (and the session abandoned for a new one) without waiting for the servers to say so
         * @return this builder
         */
        public Builder lostAfterSuspendedTimeout(boolean enabled) {
            this.lostAfterSuspendedTimeout = enabled;
            return this;
        }

        /**
         * The largest request the servers accept ({@code jute.maxbuffer} on the servers). Data that
         * would exceed it fails with {@link DataTooLargeException} before it is sent.
         *
         * @param bytes the largest request the servers accept ({@code jute.maxbuffer} on the servers)
         * @return this builder
         */
        public Builder maxRequestBytes(int bytes) {
            if (bytes < 1024) {
                throw new IllegalArgumentException("maxRequestBytes must be at least 1024, was " + bytes);
            }
            this.maxRequestBytes = bytes;
            return this;
        }

        /**
         * Builds the client (not yet started).
         *
         * @return the client, not yet started
         */
        public BatonClient build() {
            if (connectString == null) {
                throw new IllegalStateException("connectString is required: BatonClient.builder().connectString(\"host:2181\")");
            }
            ConnectionSettings settings = new ConnectionSettings(connectString, sessionTimeout, connectionTimeout,
                canBeReadOnly, clientConfig, List.copyOf(auths), lostAfterSuspendedTimeout);
            return ClientCore.create(new ClientCore.Config(settings, retryPolicy, namespace, aclProvider, eventExecutor,
                errorPolicy, maxRequestBytes, ticker, assumedCapabilities));
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
