package dev.baton.framework.internal;

import dev.baton.framework.AclProvider;
import dev.baton.framework.BatonClient;
import dev.baton.framework.ClientClosedException;
import dev.baton.framework.ClientHealth;
import dev.baton.framework.ConnectionState;
import dev.baton.framework.ConnectionStateChange;
import dev.baton.framework.ConnectionStateListener;
import dev.baton.framework.ErrorPolicy;
import dev.baton.framework.ServerCapabilities;
import dev.baton.framework.Ticker;
import dev.baton.framework.retry.RetryPolicy;
import java.io.IOException;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.io.UncheckedIOException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every namespace view of one client shares: the connection, the retry loop, the executors
 * and the background deleter. Built by {@link BatonClient.Builder#build()}.
 *
 * <p>Threads: one scheduler thread (timers, retry delays, session rebuilds; never user code), a
 * small fork-join pool on which every future completes, and the event executor on which listeners
 * and watchers run in order.
 */
public final class ClientCore {
    private static final Logger LOG = LoggerFactory.getLogger(ClientCore.class);
    private static final AtomicInteger CLIENTS = new AtomicInteger();

    /** The client's immutable settings. */
    public record Config(ConnectionSettings settings, RetryPolicy retryPolicy, String namespace, AclProvider aclProvider,
                         Executor eventExecutor, ErrorPolicy errorPolicy, int maxRequestBytes, Ticker ticker,
                         ServerCapabilities assumedCapabilities) {
    }

    final Config config;
    final ScheduledThreadPoolExecutor scheduler;
    final ForkJoinPool async;
    final ExecutorService ownEvents;
    final SerialExecutor events;
    final Connection connection;
    /** When the ensemble's leader last certainly heard from the session: what holds end by. */
    final LeaderContact leaderContact;
    final RetryLoop retryLoop;
    /** The client's observers, and the retry count its health reports. */
    final Telemetry telemetry = new Telemetry(Clock.SYSTEM);
    final AsyncZk zk;
    /** The same calls completing on ZooKeeper's event thread, for {@link WakeUps#repliesInPlace} views only. */
    final AsyncZk zkInPlace;
    final BackgroundDeletes deletes;
    /** Wrappers of persistent-watch watchers and where they were added, so they can be removed by the caller's object. */
    final ConcurrentMap<WatchesOp.Key, WatchesOp.Registered> watcherWrappers = new ConcurrentHashMap<>();
    /** What the current session learned of its server (or what the builder said to assume). */
    private final AtomicReference<Known> known = new AtomicReference<>();
    /** The session whose capabilities were last asked for (0: ask at the next connect). */
    private volatile long probedSession;
    private volatile boolean started;
    private volatile boolean closed;
    /** Held only to turn {@link #closed} on once: two threads closing at once run the close's steps once. */
    private final Object closeOnce = new Object();

    private ClientCore(Config config) {
        this.config = config;
        String name = "baton-" + CLIENTS.incrementAndGet();
        this.scheduler = new ScheduledThreadPoolExecutor(1, ThreadFactories.daemon(name + "-scheduler"));
        scheduler.setRemoveOnCancelPolicy(true);
        // the one scheduler thread exists from the start (holds and waiting acquisitions schedule
        // their confirmed-contact syncs on it), not from whichever operation first needs a timer
        scheduler.prestartCoreThread();
        this.async = new ForkJoinPool(Math.max(2, Runtime.getRuntime().availableProcessors()),
            ThreadFactories.daemonWorkers(name + "-async"), null, true);
        this.ownEvents = config.eventExecutor() == null
            ? Executors.newSingleThreadExecutor(ThreadFactories.daemon(name + "-events"))
            : null;
        // a view of its own for the event queue's retries (the client's close, its timer): the root view is made after the core
        this.events = new SerialExecutor(ownEvents != null ? ownEvents : config.eventExecutor(), new NamespacedClient(this, null),
            "the event executor of " + name);
        this.connection = new Connection(config.settings(), config.ticker(), scheduler, async, events);
        this.leaderContact = new LeaderContact(connection, scheduler, async);
        this.retryLoop = new RetryLoop(config.retryPolicy(), Clock.of(config.ticker()), connection, scheduler, async, leaderContact::confirmed, telemetry);
        this.zk = new AsyncZk(async);
        this.zkInPlace = new AsyncZk(Runnable::run);
        this.deletes = new BackgroundDeletes(connection, zk, scheduler);
        this.known.set(new Known(config.assumedCapabilities() != null ? config.assumedCapabilities() : ServerCapabilities.unknown(),
            0, EnumSet.noneOf(ServerCapabilities.Feature.class)));
    }

    /** Builds a client: its core and the view for the configured namespace. */
    public static BatonClient create(Config config) {
        ClientCore core = new ClientCore(config);
        NamespacedClient root = new NamespacedClient(core, config.namespace());
        core.connection.addListener(new ConnectionStateListener() {
            @Override
            public void stateChanged(BatonClient client, ConnectionState newState) {
                core.deletes.onState(newState);
            }

            @Override
            public void stateChanged(BatonClient client, ConnectionStateChange change) {
                stateChanged(client, change.state());
                core.learnCapabilities(change);
            }
        }, root);
        return root;
    }

    void start() {
        if (closed) {
            throw new ClientClosedException("start", null);
        }
        if (started) {
            return;
        }
        ConnectStrings.requireResolvable(config.settings().connectString());
        started = true;
        try {
            connection.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a ZooKeeper handle for " + config.settings().connectString(), e);
        }
    }

    /** The snapshot {@link BatonClient#health()} returns; the rule is {@link ClientHealth}'s. */
    ClientHealth health() {
        ConnectionState state = connection.state();
        boolean quorum = state == ConnectionState.CONNECTED || state == ConnectionState.RECONNECTED;
        boolean healthy = started && !closed && quorum;
        String reason;
        if (closed) {
            reason = "the client is closed";
        } else if (!started) {
            reason = "the client is not started";
        } else {
            reason = switch (state) {
                case CONNECTED, RECONNECTED -> "connected to the quorum with a live session";
                case SUSPENDED -> "disconnected: the session may still live, locks and leadership are in doubt";
                case LOST -> "the session is lost: a new one is being set up";
                case READ_ONLY -> "connected to a read-only server cut off from the quorum";
            };
        }
        ZooKeeper zk = connection.handle();
        Optional<String> server = quorum || state == ConnectionState.READ_ONLY ? ServerAddress.of(zk) : Optional.empty();
        Duration since = Duration.ofNanos(Math.max(0, System.nanoTime() - connection.lastServerContactNanos()));
        return new ClientHealth(state, healthy, reason, connection.sessionId(), connection.negotiatedSessionTimeout(),
            server, since, telemetry.retriesLastMinute());
    }

    /** {@link BatonClient#serverCapabilities()}. */
    ServerCapabilities capabilities() {
        return known.get().capabilities();
    }

    /**
     * What is known of the server, and the features an operation of {@code session} met refused:
     * the session's probe may answer after a refusal (it runs in the background from the
     * connect), and its answer must not undo it. One reference, replaced whole, so that a refusal
     * and the probe's answer (or two refusals) arriving together do not lose one another.
     */
    private record Known(ServerCapabilities capabilities, long session, Set<ServerCapabilities.Feature> refusals) {
    }

    /**
     * A server refused {@code feature} as unimplemented: from now on it is known to lack it (until
     * the next session learns again), whatever this session's probe answers later.
     */
    void refused(ServerCapabilities.Feature feature) {
        if (config.assumedCapabilities() != null) {
            return;
        }
        long session = connection.sessionId();
        known.updateAndGet(k -> {
            Set<ServerCapabilities.Feature> refusals = EnumSet.of(feature);
            if (k.session() == session) {
                refusals.addAll(k.refusals());
            }
            return new Known(k.capabilities().with(feature, false), session, refusals);
        });
    }

    /**
     * Learns the server's capabilities once per session, at its first connection to a writable
     * server, in the background ({@link ServerProbe}). Once per session and not per reconnect:
     * reconnects come in bursts during faults, when extra requests cost most, and the servers of
     * an ensemble run one release except during a rolling upgrade, when a recipe that meets a
     * refusal falls back anyway. A new session (after an expiry) may be on another server, and
     * learning costs a request or two, so it learns again. Runs on the event executor.
     */
    private void learnCapabilities(ConnectionStateChange change) {
        ConnectionState state = change.state();
        if (config.assumedCapabilities() != null || closed
            || (state != ConnectionState.CONNECTED && state != ConnectionState.RECONNECTED) || change.sessionId() == probedSession) {
            return;
        }
        ZooKeeper handle = connection.handle();
        if (handle == null || handle.getSessionId() != change.sessionId()) {
            return; // a later state of another session follows
        }
        probedSession = change.sessionId();
        CompletableFuture<ServerCapabilities> learning;
        try {
            learning = new ServerProbe(handle, config.settings().clientConfig(), config.settings().connectionTimeout()).learn();
        } catch (RuntimeException e) {
            // a handle closing under the probe, say: the features stay as they were, the client goes on
            LOG.debug("could not ask the server for its capabilities", e);
            return;
        }
        learning.thenAccept(learned -> learned(change.sessionId(), learned));
    }

    /** The probe of {@code session} learned {@code learned}. */
    void learned(long session, ServerCapabilities learned) {
        if (connection.sessionId() != session) {
            return;
        }
        if (learned.equals(ServerCapabilities.unknown())) {
            probedSession = 0; // cut off while learning: ask again at the session's next connect
            return;
        }
        // the refusals this session's operations met stand; an earlier session's do not
        known.updateAndGet(k -> {
            Set<ServerCapabilities.Feature> refusals = k.session() == session ? k.refusals() : Set.of();
            ServerCapabilities now = learned;
            for (ServerCapabilities.Feature feature : refusals) {
                now = now.with(feature, false);
            }
            return new Known(now, session, refusals);
        });
    }

    boolean isStarted() {
        return started;
    }

    boolean isClosed() {
        return closed;
    }

    void close() {
        synchronized (closeOnce) {
            if (closed) {
                return; // closing or closed: by another thread, or by a closing listener on this one
            }
            closed = true;
        }
        deletes.close();
        connection.close();
        telemetry.observer().clientClosed(); // after the recipes' closing listeners reported their ends
        scheduler.shutdownNow();
        retryLoop.close(); // the dropped timers included back-offs: their runs fail now
        async.shutdown();
        if (ownEvents != null) {
            ownEvents.shutdown();
        }
    }

    /**
     * Wraps a caller's watcher so it runs on the event executor and sees paths without
     * {@code namespace}. A {@link WakeUps.DirectWatcher} (framework code that only wakes a waiting
     * thread) runs on ZooKeeper's event thread instead.
     */
    Watcher dispatching(Watcher watcher, String namespace) {
        if (watcher == null) {
            return null;
        }
        if (watcher instanceof WakeUps.DirectWatcher) {
            return event -> watcher.process(visible(event, namespace));
        }
        return event -> {
            WatchedEvent visible = visible(event, namespace);
            events.execute(() -> watcher.process(visible));
        };
    }

    private static WatchedEvent visible(WatchedEvent event, String namespace) {
        return namespace == null || event.getPath() == null
            ? event
            : new WatchedEvent(event.getType(), event.getState(), Paths.unfix(namespace, event.getPath()), event.getZxid());
    }
}
