package dev.baton.recipes.transaction;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ClientNotStartedException;
import dev.baton.framework.ConnectionState;
import dev.baton.framework.ConnectionStateListener;
import dev.baton.framework.NodeExistsException;
import dev.baton.framework.Timeouts;
import dev.baton.framework.cache.CacheEvent;
import dev.baton.framework.cache.ChildData;
import dev.baton.framework.cache.TreeCache;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A participant in the two-phase-commit transactions of a folder: it registers its id, is handed
 * every transaction that names it, and runs its {@link TransactionHandler}.
 *
 * <p>Algorithm: a {@link TreeCache} (depth 2) keeps the folder's transactions in view and, of
 * each transaction naming this participant, the nodes it acts on: the decision, its own vote and
 * its own acknowledgement (the other sites' votes and acknowledgements are read afresh when a
 * step needs them, so the view does not read them: a participant's reads do not grow with the
 * number of participants per transaction). For each transaction that names it, the participant
 * prepares (once per incarnation, and not at all if an earlier incarnation's vote is on the
 * servers), writes its vote, and — if its vote completed an all-commit set, as a fresh read after
 * the write shows — records the commit. When its deadline passes here (counted from when this
 * incarnation first saw the transaction) with no decision, it reads the votes and records what
 * they allow. It is told the decision only as read from the decision node, tells its handler
 * once, and records its acknowledgement; the last party to acknowledge deletes the
 * transaction's nodes. A decided transaction is deleted after the retention period even if some
 * party never acknowledged. Every step's outcome is re-derived from the nodes on each change,
 * after every reconnect, and a second after a step failed for want of a connection.
 *
 * <p>Guarantees and caveats: the handler is told commit or abort at most once per transaction per
 * incarnation (per {@code TransactionParticipant} object), only after the decision is on the
 * servers, and exactly once if the incarnation lives until the decision; a restarted incarnation
 * finds every undecided and decided transaction naming it that it has not acknowledged. One
 * incarnation per participant id may run at a time. A participant away for longer than the
 * retention period may find its transaction gone: see {@link TransactionHandler#outcomeUnknown}.
 *
 * <pre>{@code
 * TransactionParticipant stock = TransactionParticipant.builder(client, "/shop/tx", "stock", handler).build();
 * stock.start();   // registers "stock", returns once the folder is loaded
 * }</pre>
 */
public final class TransactionParticipant implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TransactionParticipant.class);
    /** Default retention of decided transactions that not everyone acknowledged: one day. */
    public static final Duration DEFAULT_RETENTION = Duration.ofDays(1);
    /** Default time {@link #start()} waits for the folder to load: 30 s. */
    public static final Duration DEFAULT_START_TIMEOUT = Duration.ofSeconds(30);

    private enum State { LATENT, STARTED, CLOSED }

    final BatonClient client;
    final Layout layout;
    final String id;
    final TransactionHandler handler;
    final Executor handlerExecutor;
    final Duration retention;
    private final ExecutorService ownExecutor;
    private final Duration startTimeout;
    private final TreeCache tree;
    private final SiteActions actions;
    private final Map<String, Site> sites = new HashMap<>();
    /** Transactions seen not to name this participant: changed under this lock, read without it by the cache's filter. */
    private final Set<String> notMine = ConcurrentHashMap.newKeySet();
    /** The names of a transaction's children the view keeps: the ones this participant acts on. */
    private final Set<String> ownChildren;
    private final ConnectionStateListener reconnects = (c, state) -> {
        if (state == ConnectionState.RECONNECTED || state == ConnectionState.CONNECTED) {
            lookAtAll();
        }
    };
    private State state = State.LATENT;
    private volatile boolean loaded;

    private TransactionParticipant(Builder b) {
        this.client = b.client;
        this.layout = b.layout;
        this.id = b.id;
        this.handler = b.handler;
        this.ownExecutor = b.executor == null ? Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "baton-tx-" + b.id);
            t.setDaemon(true);
            return t;
        }) : null;
        this.handlerExecutor = b.executor == null ? ownExecutor : b.executor;
        this.retention = b.retention;
        this.startTimeout = b.startTimeout;
        this.ownChildren = Set.of(Layout.DECISION, Layout.VOTE_PREFIX + b.id, Layout.ACK_PREFIX + b.id);
        this.tree = TreeCache.builder(client, layout.transactions).maxDepth(2).filter(this::inView).build();
        this.actions = new SiteActions(this);
    }

    /**
     * Configures a participant with id {@code participantId} in the transactions of {@code folder}.
     *
     * @param client a started client
     * @param folder the transaction folder (the coordinators use the same path)
     * @param participantId 1 to 100 letters, digits, {@code .}, {@code _} or {@code -}
     * @param handler the participant's prepare, commit and abort
     * @return a builder
     * @throws InvalidTransactionException if the id cannot name a node
     * @throws NullPointerException if an argument is null
     */
    public static Builder builder(BatonClient client, String folder, String participantId, TransactionHandler handler) {
        return new Builder(client, folder, participantId, handler);
    }

    /**
     * Registers the id (idempotently), starts watching the folder and returns once it is loaded;
     * the transactions already there are then handled in the background.
     *
     * <p>If it throws, the participant is closed: it takes no part in any transaction, and a new
     * one must be built to try again. The one exception is a client never started: that is refused
     * before anything is done, and the same participant starts once the client has.
     *
     * @throws ClientNotStartedException if the client was never started (start it, then this)
     * @throws TransactionException if the folder did not load within the start timeout
     * @throws IllegalStateException if it was started or closed before
     * @throws InterruptedException if interrupted while registering or loading
     */
    public void start() throws InterruptedException {
        if (!client.isClosed()) {   // a closed client is refused by the create below, as before
            // refused here, not by the create below, which would close this participant for good
            client.requireStarted("start the transaction participant", layout.registration(id));
        }
        synchronized (this) {
            switch (state) {
                case LATENT -> state = State.STARTED;
                case STARTED -> throw new IllegalStateException("participant " + id + " is already started");
                case CLOSED -> throw new IllegalStateException("participant " + id + " is closed");
            }
        }
        boolean started = false;
        try {
            try {
                client.create().creatingParentsIfNeeded().forPath(layout.registration(id));
            } catch (NodeExistsException registeredBefore) {
                // an earlier incarnation registered this id
            }
            tree.addListener(this::onEvent);
            client.addConnectionStateListener(reconnects);
            tree.start();
            if (!tree.awaitInitialized(startTimeout)) {
                throw new TransactionException("participant " + id + ": the transactions of " + layout.folder
                    + " did not load within " + startTimeout + "; is the client connected?");
            }
            started = true;
        } finally {
            if (!started) {
                // a start that throws leaves nothing running: before, one interrupted while the folder loaded went on
                // loading it in the background, then prepared and voted on transactions its caller thought it had left
                close();
            }
        }
    }

    /**
     * This participant's id.
     *
     * @return the id it registered
     */
    public String id() {
        return id;
    }

    /** Stops: no more calls into the handler begin, nothing more is written; a call running finishes. */
    @Override
    public void close() {
        synchronized (this) {
            if (state == State.CLOSED) {
                return;
            }
            state = State.CLOSED;
        }
        client.removeConnectionStateListener(reconnects);
        tree.close();
        if (ownExecutor != null) {
            ownExecutor.shutdown();
        }
    }

    synchronized boolean isClosed() {
        return state == State.CLOSED;
    }

    private void onEvent(CacheEvent event) {
        if (event.type() == CacheEvent.Type.INITIALIZED) {
            loaded = true;
            lookAtAll();
        } else if (loaded && event.node() != null) {
            txId(event.node().path()).ifPresent(this::lookAt);
        }
    }

    private void lookAtAll() {
        if (!loaded) {
            return;
        }
        Set<String> ids = new HashSet<>(tree.children(layout.transactions).keySet());
        synchronized (this) {
            ids.addAll(sites.keySet());
        }
        ids.forEach(this::lookAt);
    }

    /** Looks at one transaction as the view shows it now and takes the step its site calls for. */
    void lookAt(String txId) {
        String path = layout.tx(txId);
        Site site;
        Site.Step step;
        boolean firstSight;
        TransactionStatus seen;
        synchronized (this) {
            if (state != State.STARTED) {
                return;
            }
            // read the view under this lock: looks then see the view in the order they take the lock,
            // and a transaction seen gone is never brought back by a look that read the view earlier
            Optional<ChildData> node = tree.get(path);
            site = sites.get(txId);
            if (node.isEmpty()) {
                notMine.remove(txId);
                if (site != null) {
                    sites.remove(txId);
                    actions.vanished(site);
                }
                return;
            }
            firstSight = site == null;
            if (firstSight && (notMine.contains(txId) || (site = newSite(txId, path, node.get())) == null)) {
                return;
            }
            seen = status(site.tx, node.get());
            step = site.next(seen);
        }
        if (firstSight) {
            actions.firstSight(site, seen);
        }
        actions.take(site, step, seen);
    }

    /**
     * Takes the step {@code site} calls for given {@code fresh}, a read of the transaction's nodes
     * just made: a participant whose view of the folder lags (the cache applies every change in
     * the folder, in order, each after a read of its node) still learns the decision its own read
     * found in the decision node.
     */
    void lookAt(Site site, TransactionStatus fresh) {
        Site.Step step;
        synchronized (this) {
            if (!isCurrent(site)) {
                return;
            }
            step = site.next(fresh);
        }
        actions.take(site, step, fresh);
    }

    /** The site for a transaction first seen, or null (remembered) if it does not name this participant. */
    private Site newSite(String txId, String path, ChildData node) {
        Transaction tx;
        try {
            tx = Codec.transaction(txId, node.data());
        } catch (TransactionException e) {
            LOG.warn("participant {}: ignoring {}: {}", id, path, e.getMessage());
            notMine.add(txId);
            return null;
        }
        if (!tx.participants().contains(id)) {
            notMine.add(txId);
            return null;
        }
        Site site = new Site(tx, path, id, System.nanoTime());
        sites.put(txId, site);
        return site;
    }

    /** Whether {@code site} is still this participant's current site for its transaction. */
    synchronized boolean isCurrent(Site site) {
        return state == State.STARTED && sites.get(site.tx.id()) == site;
    }

    private TransactionStatus status(Transaction tx, ChildData node) {
        Map<String, byte[]> children = new HashMap<>();
        tree.children(node.path()).forEach((name, child) -> children.put(name, child.data()));
        return TransactionStatus.of(tx, node.stat().getCtime(), children);
    }

    /**
     * Whether the view keeps the node at {@code path} (below the transactions folder): every
     * transaction node (its data says whether it names this participant) and, below one that
     * is not known not to name it, the decision, this participant's vote and its acknowledgement.
     * Every other site's vote and acknowledgement would cost each participant a read per
     * transaction for nothing: the steps that need them (deciding, cleaning up) read them afresh.
     * Runs on the client's event thread: no lock.
     */
    private boolean inView(String path) {
        String rest = path.substring(layout.transactions.length() + 1);
        int slash = rest.indexOf('/');
        return slash < 0 || !notMine.contains(rest.substring(0, slash)) && ownChildren.contains(rest.substring(slash + 1));
    }

    /** The transaction a cached path belongs to, if it is one or below one. */
    private Optional<String> txId(String path) {
        String prefix = layout.transactions + "/";
        if (!path.startsWith(prefix)) {
            return Optional.empty();
        }
        String rest = path.substring(prefix.length());
        int slash = rest.indexOf('/');
        return Optional.of(slash < 0 ? rest : rest.substring(0, slash));
    }

    /** Configures a {@link TransactionParticipant}. */
    public static final class Builder {
        private final BatonClient client;
        private final Layout layout;
        private final String id;
        private final TransactionHandler handler;
        private Executor executor;
        private Duration retention = DEFAULT_RETENTION;
        private Duration startTimeout = DEFAULT_START_TIMEOUT;

        private Builder(BatonClient client, String folder, String participantId, TransactionHandler handler) {
            this.client = Objects.requireNonNull(client, "client");
            this.layout = new Layout(folder);
            this.id = Layout.checkParticipantId(participantId);
            this.handler = Objects.requireNonNull(handler, "handler");
        }

        /**
         * Where the handler runs. Default: one thread of the participant's own, so the handler
         * sees one call at a time; give a pool to prepare several transactions at once. A call it
         * refuses ({@code RejectedExecutionException}, a bounded pool that is full) while the
         * participant and its client are open is handed to it again, after 10 ms doubling to at
         * most a second, until it takes it (a WARN says so, at most every 30 s); only once the
         * client is closed, or the executor is shut down, is a refused call dropped.
         *
         * @param handlerExecutor runs the handler's calls
         * @return this builder
         */
        public Builder handlerExecutor(Executor handlerExecutor) {
            this.executor = Objects.requireNonNull(handlerExecutor, "handlerExecutor");
            return this;
        }

        /**
         * How long a decided transaction's nodes are kept, from when this participant first saw
         * the decision, if not every party acknowledged it. Default one day. A participant away
         * for longer may find its transactions gone.
         *
         * @param period a positive duration
         * @return this builder
         * @throws IllegalArgumentException if not positive
         */
        public Builder retention(Duration period) {
            Objects.requireNonNull(period, "retention");
            if (period.isNegative() || period.isZero()) {
                throw new IllegalArgumentException("retention must be positive, was " + period);
            }
            this.retention = period;
            return this;
        }

        /**
         * How long {@link TransactionParticipant#start()} waits for the folder to load. Default 30 s.
         *
         * @param timeout a non-negative duration
         * @return this builder
         */
        public Builder startTimeout(Duration timeout) {
            Timeouts.nonNegativeNanos(timeout);
            this.startTimeout = timeout;
            return this;
        }

        /**
         * Builds the participant; it does nothing until {@link TransactionParticipant#start()}.
         *
         * @return the participant
         */
        public TransactionParticipant build() {
            return new TransactionParticipant(this);
        }
    }
}
