package dev.baton.framework.internal;

import dev.baton.framework.BatonClient;
import dev.baton.framework.Blocking;
import dev.baton.framework.ClientClosedException;
import dev.baton.framework.ClientClosingListener;
import dev.baton.framework.ConnectionState;
import dev.baton.framework.ConnectionStateChange;
import dev.baton.framework.ConnectionStateListener;
import dev.baton.framework.NoConnectionException;
import dev.baton.framework.Ticker;
import dev.baton.framework.Timeouts;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.client.ConnectStringParser;
import org.apache.zookeeper.client.StaticHostProvider;
import org.apache.zookeeper.client.ZKClientConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Owns the client's one ZooKeeper handle at a time and turns its events into
 * {@link ConnectionState}s.
 *
 * <p>ZooKeeper reports SyncConnected, Disconnected, Expired and ConnectedReadOnly on its event
 * thread. This class maps them to CONNECTED / RECONNECTED, SUSPENDED, LOST and READ_ONLY, tags
 * each with the session it belongs to, and hands them to listeners through a serial executor, in
 * order and never on ZooKeeper's thread. After an expiry it builds a new handle (a new session) on
 * the scheduler thread. When SUSPENDED lasts longer than the negotiated session timeout it reports
 * LOST itself (the servers have expired the session by then, or are about to) and abandons the old
 * session the same way, so what listeners see does not depend on how long the partition lasts.
 * Abandoning a session the client declared lost also ends it on the servers ({@link #endOnServers}):
 * they may still keep it (the handle reconnected just as the timer fired, or a leader change gave
 * every session a fresh timeout), and its ephemeral nodes — locks, leaderships — must not outlive
 * the LOST that listeners already heard by another session timeout.
 *
 * <p>The state is kept for one (handle, session) pair at a time: a connect is a change whenever it
 * is for another pair than the last state reported, whatever that state was, and a session once
 * reported LOST is over: its handle is being abandoned, and a reconnect of it that arrives late is
 * not reported (its expiry follows, then the new session's connect).
 *
 * <p>A session back on a read-only server (READ_ONLY) is connected for reads, but nothing keeps
 * it alive on the quorum, which may expire it meanwhile. So for the session's liveness READ_ONLY
 * counts as SUSPENDED: the LOST timer started at the disconnect keeps running, and answers from a
 * read-only server are not server contact ({@link #lastServerContactNanos}). A session created on
 * a read-only server never had anything on the quorum to lose: while it is READ_ONLY no timer
 * runs for it.
 */
public final class Connection implements HandleSource {
    private static final Logger LOG = LoggerFactory.getLogger(Connection.class);
    private static final Duration REBUILD_RETRY = Duration.ofSeconds(1);
    private static final Duration CLOSE_WAIT = Duration.ofSeconds(2);

    private record Registration(ConnectionStateListener listener, BatonClient client) {
    }

    private final ConnectionSettings settings;
    /** The client's clock, for the waits' deadlines; server contact stays on System.nanoTime (see lastContact). */
    private final Ticker ticker;
    private final ScheduledExecutorService scheduler;
    private final Executor async;
    private final SerialExecutor events;
    private final CopyOnWriteArrayList<Registration> listeners = new CopyOnWriteArrayList<>();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final List<CompletableFuture<ZooKeeper>> waiters = new ArrayList<>();
    /**
     * System.nanoTime, not the client's ticker: it is held against the servers' real-time session
     * expiry (health, leader contact), which a driven clock must not bend.
     */
    private final AtomicLong lastContact = new AtomicLong(System.nanoTime());

    private volatile ZooKeeper connectedHandle;
    /** The session timeout granted at the last connection (ms), 0 before the first. */
    private volatile long grantedMillis;
    /** Whether the connected server is read-only: its answers are not contact with the quorum. */
    private volatile boolean readOnly;
    private Handle handle;
    private int generations;
    private ConnectionState state;
    /** The handle and session the last reported state belongs to. */
    private Handle stateHandle;
    private long stateSession;
    private boolean everConnected;
    private boolean closed;
    private long sequence;
    /**
     * How many state changes have been reported, readable without the lock: a change reported
     * from ZooKeeper's event thread is counted before that thread hands on anything that came
     * after it on the connection (see {@link #transitions()}).
     */
    private volatile long transitions;
    /** The armed LOST timer, null when none; {@code lostTimers} tells a cancelled one that it is. */
    private ScheduledFuture<?> lostTimer;
    private long lostTimers;

    public Connection(ConnectionSettings settings, Ticker ticker, ScheduledExecutorService scheduler, Executor async,
                      SerialExecutor events) {
        this.settings = settings;
        this.ticker = ticker;
        this.scheduler = scheduler;
        this.async = async;
        this.events = events;
    }

    /** Creates the first handle; connecting continues in the background. */
    public void start() throws IOException {
        lock.lock();
        try {
            if (handle == null && !closed) {
                handle = new Handle();
            }
        } finally {
            lock.unlock();
        }
    }

    public void addListener(ConnectionStateListener listener, BatonClient client) {
        listeners.add(new Registration(listener, client));
    }

    public void removeListener(ConnectionStateListener listener) {
        listeners.removeIf(r -> r.listener == listener);
    }

    /**
     * The current state; SUSPENDED (not connected) before the first connection, LOST once the
     * client is closed (its session is over and it will not connect again).
     */
    public ConnectionState state() {
        lock.lock();
        try {
            if (closed) {
                return ConnectionState.LOST;
            }
            return state == null ? ConnectionState.SUSPENDED : state;
        } finally {
            lock.unlock();
        }
    }

    /** The current handle (connected or not), or null before start. */
    public ZooKeeper handle() {
        lock.lock();
        try {
            return handle == null ? null : handle.zk;
        } finally {
            lock.unlock();
        }
    }

    /**
     * How many connection state changes have been reported so far. For a reader on ZooKeeper's
     * event thread the count is in order with the replies and watch events it handles: a change
     * the servers' connection went through (a disconnect, a reconnect, a new session) is counted
     * before any reply or event that came after it; so a reply handled there with the count
     * unchanged since its request was sent came over the connection the request went out on.
     *
     * @return the count, starting at 0
     */
    public long transitions() {
        return transitions;
    }

    /** The current session's id, or 0 before the first connection. */
    public long sessionId() {
        ZooKeeper zk = handle();
        return zk == null ? 0 : zk.getSessionId();
    }

    /**
     * The session timeout the servers last granted, or the requested one before the first
     * connection. It is kept while disconnected: that is when the LOST timer and the holds'
     * leases need it, and the servers may have granted much less than was asked for.
     */
    public Duration negotiatedSessionTimeout() {
        long granted = grantedMillis;
        return granted > 0 ? Duration.ofMillis(granted) : settings.sessionTimeout();
    }

    /**
     * When (System.nanoTime) the servers of the quorum last certainly heard from this session; a
     * read-only server does not count (it keeps nothing alive on the quorum).
     */
    public long lastServerContactNanos() {
        return lastContact.get();
    }

    public boolean blockUntilConnected(Duration timeout) throws InterruptedException {
        long deadline = ticker.read() + Timeouts.nonNegativeNanos(timeout);
        lock.lock();
        try {
            while (true) {
                if (closed) {
                    throw new ClientClosedException("blockUntilConnected", null);
                }
                if (state != null && state.isConnected()) {
                    return true;
                }
                long left = deadline - ticker.read();
                if (left <= 0) {
                    return false;
                }
                Blocking.managed(() -> changed.awaitNanos(left));
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public ZooKeeper awaitConnected(String operation, String path) throws InterruptedException {
        ZooKeeper zk = connectedHandle;
        if (zk != null) {
            return zk;
        }
        Duration timeout = settings.connectionTimeout();
        long deadline = ticker.read() + Timeouts.nanos(timeout);
        lock.lock();
        try {
            while (true) {
                if (closed) {
                    throw new ClientClosedException(operation, path);
                }
                if (connectedHandle != null) {
                    return connectedHandle;
                }
                long left = deadline - ticker.read();
                if (left <= 0) {
                    throw new NoConnectionException(operation, path, timeout);
                }
                Blocking.managed(() -> changed.awaitNanos(left));
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public CompletableFuture<ZooKeeper> whenConnected(String operation, String path) {
        ZooKeeper zk = connectedHandle;
        if (zk != null) {
            return CompletableFuture.completedFuture(zk);
        }
        CompletableFuture<ZooKeeper> waiter = new CompletableFuture<>();
        lock.lock();
        try {
            if (closed) {
                return CompletableFuture.failedFuture(new ClientClosedException(operation, path));
            }
            if (connectedHandle != null) {
                return CompletableFuture.completedFuture(connectedHandle);
            }
            waiters.add(waiter);
        } finally {
            lock.unlock();
        }
        Duration timeout = settings.connectionTimeout();
        ScheduledFuture<?> timer = scheduler.schedule(() -> {
            lock.lock();
            try {
                waiters.remove(waiter);
            } finally {
                lock.unlock();
            }
            async.execute(() -> waiter.completeExceptionally(new NoConnectionException(operation, path, timeout)));
        }, timeout.toNanos(), TimeUnit.NANOSECONDS);
        waiter.whenComplete((v, e) -> timer.cancel(false));
        return waiter;
    }

    @Override
    public void contacted(long sentNanos) {
        if (!readOnly) {
            lastContact.accumulateAndGet(sentNanos, Math::max);
        }
    }

    /**
     * Closes the handle (ending the session) and fails every waiter; listeners hear nothing more,
     * except that {@link ClientClosingListener}s are told first, on this thread, before the session ends.
     */
    public void close() {
        Handle last;
        List<CompletableFuture<ZooKeeper>> failed;
        lock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            connectedHandle = null;
            cancelLostTimer();
            failed = new ArrayList<>(waiters);
            waiters.clear();
            last = handle;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        failed.forEach(w -> async.execute(() -> w.completeExceptionally(new ClientClosedException("connect", null))));
        for (Registration r : listeners) {
            if (r.listener instanceof ClientClosingListener closing) {
                try {
                    closing.clientClosing();
                } catch (RuntimeException e) {
                    LOG.warn("a closing listener failed", e);
                }
            }
        }
        if (last != null) {
            closeBounded(last.zk);
        }
    }

    /**
     * Ends the session: ZooKeeper's close sends closeSession and waits for the reply without a
     * limit. With the servers gone that wait can be long, so it runs on a thread of its own and
     * the caller waits at most {@link #CLOSE_WAIT}; the servers expire the session if the request
     * never arrives.
     */
    private static void closeBounded(ZooKeeper zk) {
        Thread closer = new Thread(() -> {
            try {
                zk.close();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "baton-close-session");
        closer.setDaemon(true);
        closer.start();
        try {
            closer.join(CLOSE_WAIT.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (closer.isAlive()) {
            LOG.info("session 0x{} not closed within {}: the servers will expire it", Long.toHexString(zk.getSessionId()), CLOSE_WAIT);
        }
    }

    private void onEvent(Handle from, WatchedEvent event) {
        if (event.getType() != Watcher.Event.EventType.None) {
            return;
        }
        lock.lock();
        try {
            if (closed || from != handle) {
                return;
            }
            if (from.lostReported && event.getState() != Watcher.Event.KeeperState.Expired) {
                // listeners heard LOST for this session and its expiry is on the way: a reconnect
                // that arrives now (the handle reconnected just before it was abandoned) is not news
                return;
            }
            switch (event.getState()) {
                case SyncConnected -> connected(from, false);
                case ConnectedReadOnly -> connected(from, true);
                case Disconnected -> disconnected(from);
                case Expired -> {
                    reportLost(from);
                    scheduler.execute(() -> rebuild(from));
                }
                case AuthFailed -> LOG.error("the ensemble rejected this client's credentials (session 0x{})",
                    Long.toHexString(from.sessionId));
                default -> {
                    // Closed: our own close; SaslAuthenticated: nothing to report
                }
            }
        } finally {
            lock.unlock();
        }
    }

    private void connected(Handle h, boolean toReadOnly) {
        long session = h.zk.getSessionId();
        h.sessionId = session;
        if (!toReadOnly) {
            h.quorumSession = session;
            cancelLostTimer();
            lastContact.accumulateAndGet(System.nanoTime(), Math::max);
        } else if (session != h.quorumSession) {
            cancelLostTimer(); // a session of the read-only server's own: nothing on the quorum to lose
        }
        // else a quorum session on a read-only server: the timer started at the disconnect runs on
        readOnly = toReadOnly;
        int granted = h.zk.getSessionTimeout();
        if (granted > 0) {
            grantedMillis = granted;
        }
        connectedHandle = h.zk;
        changed.signalAll();
        List<CompletableFuture<ZooKeeper>> ready = new ArrayList<>(waiters);
        waiters.clear();
        ZooKeeper zk = h.zk;
        ready.forEach(w -> async.execute(() -> w.complete(zk)));
        ConnectionState newState = toReadOnly ? ConnectionState.READ_ONLY
            : everConnected ? ConnectionState.RECONNECTED : ConnectionState.CONNECTED;
        boolean sameConnection = stateHandle == h && stateSession == session
            && (state == newState || (state == ConnectionState.CONNECTED && newState == ConnectionState.RECONNECTED));
        if (sameConnection) {
            // ZooKeeper hands its watchers a SyncConnected only after an event of another state, so
            // this one follows a disconnect that never reached us: its event thread de-duplicates
            // connection events against the state of the last event of any kind, and a watch
            // removal that failed with connection loss is queued with the state Disconnected just
            // before the Disconnected of that same loss, which is then dropped. Listeners hear the
            // outage now, after the fact: a cache must reload what changed during it (a participant
            // never saw the transactions created while its link was cut, TransactionChaosTest;
            // ConnectionStatesTest#aCutWhileAWatchRemovalIsInFlightStillGivesSuspendedThenReconnected).
            LOG.info("session 0x{} was disconnected and connected again without a Disconnected event (a watch removal"
                + " failed with the connection): reporting both", Long.toHexString(session));
            transition(ConnectionState.SUSPENDED, h, session);
            transition(newState, h, session);
            return;
        }
        everConnected = true;
        transition(newState, h, session);
    }

    private void disconnected(Handle h) {
        if (state == null || !state.isConnected()) {
            return;
        }
        connectedHandle = null;
        if (!readOnly) {
            // ZooKeeper declares a disconnect after hearing nothing for 2/3 of the session timeout,
            // so the servers heard from us no earlier than that before now.
            long readTimeout = negotiatedSessionTimeout().toNanos() * 2 / 3;
            lastContact.accumulateAndGet(System.nanoTime() - readTimeout, Math::max);
        }
        readOnly = false;
        transition(ConnectionState.SUSPENDED, h, h.sessionId);
        if (settings.lostAfterSuspendedTimeout() && lostTimer == null) {
            // (a timer still armed went on through READ_ONLY: it keeps its deadline)
            long timeout = negotiatedSessionTimeout().toNanos();
            long armed = ++lostTimers;
            lostTimer = scheduler.schedule(() -> suspendedTooLong(h, armed), timeout, TimeUnit.NANOSECONDS);
        }
    }

    private void suspendedTooLong(Handle h, long timer) {
        lock.lock();
        try {
            if (timer != lostTimers) {
                return; // cancelled after it had started
            }
            lostTimer = null;
            boolean suspended = state == ConnectionState.SUSPENDED || state == ConnectionState.READ_ONLY;
            if (closed || h != handle || !suspended || h.lostReported) {
                return;
            }
            LOG.warn("{} longer than the session timeout ({}) since the disconnect: session 0x{} counts as lost",
                state == ConnectionState.READ_ONLY ? "suspended or read-only" : "suspended", negotiatedSessionTimeout(),
                Long.toHexString(h.sessionId));
            reportLost(h);
        } finally {
            lock.unlock();
        }
        // Abandon the old session: the handle reports Expired to its watchers and closes, and
        // onEvent(Expired) builds the new session. The injected expiry only stops the handle (a
        // close() afterwards sends nothing), so the servers are told separately.
        long session = h.zk.getSessionId();
        byte[] password = h.zk.getSessionPasswd();
        h.zk.getTestable().injectSessionExpiration();
        endOnServers(session, password);
    }

    /**
     * Ends session {@code session} on the servers, if they still keep it: attaches to it with a
     * handle of its own and closes that (closeSession). If the servers already expired it, they say
     * so at once and there is nothing to do; if they cannot be reached within a session timeout
     * they expire it themselves. Runs on a thread of its own: connecting may take that long.
     */
    private void endOnServers(long session, byte[] password) {
        if (session == 0) {
            return;
        }
        long patienceNanos = negotiatedSessionTimeout().toNanos();
        Thread ender = new Thread(() -> {
            CompletableFuture<Boolean> answered = new CompletableFuture<>();
            Watcher watcher = event -> {
                switch (event.getState()) {
                    case SyncConnected, ConnectedReadOnly -> answered.complete(true);
                    case Expired, AuthFailed, Closed -> answered.complete(false);
                    default -> {
                        // Disconnected: still trying
                    }
                }
            };
            ZooKeeper attached;
            try {
                ZKClientConfig config = settings.clientConfig();
                int timeout = (int) settings.sessionTimeout().toMillis();
                attached = config == null
                    ? new ZooKeeper(settings.connectString(), timeout, watcher, session, password, false)
                    : new ZooKeeper(settings.connectString(), timeout, watcher, session, password, false,
                        new StaticHostProvider(new ConnectStringParser(settings.connectString()).getServerAddresses()), config);
            } catch (IOException | RuntimeException e) {
                LOG.info("could not end session 0x{} on the servers ({}): they will expire it", Long.toHexString(session), e.toString());
                return;
            }
            try {
                boolean alive = answered.get(patienceNanos, TimeUnit.NANOSECONDS);
                if (alive) {
                    LOG.info("session 0x{} was still alive on the servers after it was reported lost: ending it",
                        Long.toHexString(session));
                }
            } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException e) {
                // unreachable for a session timeout: the servers have expired it meanwhile
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                closeBounded(attached);
            }
        }, "baton-end-session-0x" + Long.toHexString(session));
        ender.setDaemon(true);
        ender.start();
    }

    private void reportLost(Handle h) {
        cancelLostTimer();
        connectedHandle = null;
        if (h.lostReported) {
            return;
        }
        h.lostReported = true;
        readOnly = false;
        transition(ConnectionState.LOST, h, h.sessionId);
    }

    private void rebuild(Handle expired) {
        lock.lock();
        try {
            if (closed || handle != expired) {
                return;
            }
            handle = new Handle();
            LOG.info("built a new session after session 0x{} was lost", Long.toHexString(expired.sessionId));
        } catch (IOException | RuntimeException e) {
            LOG.warn("could not build a new ZooKeeper handle, trying again in {}", REBUILD_RETRY, e);
            scheduler.schedule(() -> rebuild(expired), REBUILD_RETRY.toMillis(), TimeUnit.MILLISECONDS);
        } finally {
            lock.unlock();
        }
        try {
            expired.zk.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void transition(ConnectionState newState, Handle h, long sessionId) {
        state = newState;
        stateHandle = h;
        stateSession = sessionId;
        ConnectionStateChange change = new ConnectionStateChange(newState, sessionId, ++sequence);
        transitions = sequence;
        LOG.debug("connection state {}", change);
        changed.signalAll();
        for (Registration r : listeners) {
            events.execute(() -> r.listener.stateChanged(r.client, change));
        }
    }

    private void cancelLostTimer() {
        if (lostTimer != null) {
            lostTimer.cancel(false);
            lostTimer = null;
            lostTimers++;
        }
    }

    /** One ZooKeeper handle (one session), and the watcher that reports its events. */
    private final class Handle implements Watcher {
        final ZooKeeper zk;
        final int generation;
        volatile long sessionId;
        /** The session this handle last had on a writable server (0 if none yet). */
        long quorumSession;
        boolean lostReported;

        Handle() throws IOException {
            this.generation = ++generations;
            ZKClientConfig config = settings.clientConfig();
            int timeout = (int) settings.sessionTimeout().toMillis();
            this.zk = config == null
                ? new ZooKeeper(settings.connectString(), timeout, this, settings.canBeReadOnly())
                : new ZooKeeper(settings.connectString(), timeout, this, settings.canBeReadOnly(), config);
            for (ConnectionSettings.Auth auth : settings.auths()) {
                zk.addAuthInfo(auth.scheme(), auth.auth());
            }
        }

        @Override
        public void process(WatchedEvent event) {
            onEvent(this, event);
        }

        @Override
        public String toString() {
            return "handle #" + generation;
        }
    }
}
