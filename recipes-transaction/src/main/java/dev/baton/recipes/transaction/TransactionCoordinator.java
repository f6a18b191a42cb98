package dev.baton.recipes.transaction;

import dev.baton.framework.BatonClient;
import dev.baton.framework.CreatedNode;
import dev.baton.framework.NoNodeException;
import dev.baton.framework.ZPaths;
import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.zookeeper.CreateMode;

/**
 * Starts two-phase-commit transactions over participants that registered in a folder, and
 * reports each one's decision.
 *
 * <p>Algorithm: {@link #start} checks its input, checks that every participant is registered
 * ({@code <folder>/participants/<id>}), and creates the transaction node
 * {@code <folder>/transactions/_c_<uuid>-tx-<seq>} — a protected create, so a lost reply never
 * makes two — holding the participants, the deadline and the payload. Each
 * {@link TransactionParticipant} named sees it, prepares, and votes by creating
 * {@code vote-<id>}. The decision node {@code decision} is created exactly once, in one ZooKeeper
 * transaction with a check of every vote it relies on: by the participant whose vote completes
 * an all-commit set (commit), by a participant voting abort (its vote and the abort are one
 * write), or, when the deadline passes at some site with votes missing, by that site (abort).
 * Whoever records first wins; everyone else's write fails whole, and every site — this
 * coordinator included — reports or acts on the decision only as read back from that node.
 *
 * <p>The deadline is a duration, judged by each site on its own monotonic clock
 * ({@link System#nanoTime()}) from when it first knew of the transaction: this coordinator from
 * just before it sent the create, a participant from when its view of the folder first showed the
 * node. No site compares its wall clock with another's or with the servers', so unsynchronised
 * clocks cannot make anyone abort early or wait forever; the only assumption is that clocks run
 * at about the same rate. A participant sees the node after it exists, so it never aborts before
 * the coordinator would; one that restarts starts counting again, so it may wait up to one more
 * deadline (while the coordinator, if alive, has long aborted).
 *
 * <p>Guarantees and caveats:
 * <ul>
 *   <li><b>One outcome.</b> The decision node is created once and never changed; every report
 *       and every commit or abort a participant is told comes from reading it.</li>
 *   <li><b>Validity.</b> Commit is recorded only together with a check that every participant's
 *       commit vote is there.</li>
 *   <li><b>Termination.</b> Once the ensemble is reachable, an undecided transaction is decided
 *       within about its deadline (plus a write) by this coordinator, or, if this coordinator is
 *       gone, by the participants' own deadlines. A coordinator crash never blocks the others.</li>
 *   <li><b>Blocking.</b> Two-phase commit still blocks: a participant that voted commit must hold
 *       what it prepared until the decision comes. The deadline bounds how long that takes while
 *       some site that can write is alive; it cannot bound it while none is.</li>
 *   <li>A {@code start} that throws after sending the create (no connection for longer than the
 *       retry policy allows) may still have started the transaction: it is then decided like any
 *       other (abort at the deadline unless every participant voted commit); its protected node
 *       is deleted in the background only if no participant has voted on it yet.</li>
 * </ul>
 *
 * <pre>{@code
 * TransactionCoordinator coordinator = TransactionCoordinator.builder(client, "/shop/tx").build();
 * PendingTransaction tx = coordinator.start(Set.of("billing", "stock"), order, Duration.ofSeconds(10));
 * Decision decision = tx.await(Duration.ofSeconds(15));    // null if not decided in time
 * }</pre>
 */
public final class TransactionCoordinator implements AutoCloseable {
    /** Default largest payload: 512 KiB (ZooKeeper's requests stop at 1 MiB). */
    public static final int DEFAULT_MAX_PAYLOAD_BYTES = 512 * 1024;

    private final BatonClient client;
    private final Layout layout;
    private final int maxPayloadBytes;
    private final Set<PendingTransaction> pending = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    private TransactionCoordinator(Builder builder) {
        this.client = builder.client;
        this.layout = builder.layout;
        this.maxPayloadBytes = builder.maxPayloadBytes;
    }

    /**
     * Configures a coordinator of the transactions in {@code folder}.
     *
     * @param client a started client
     * @param folder the transaction folder (the participants use the same path)
     * @return a builder
     */
    public static Builder builder(BatonClient client, String folder) {
        return new Builder(client, folder);
    }

    /**
     * Starts a transaction and returns once its node is created; the decision comes later
     * ({@link PendingTransaction#await}).
     *
     * @param participants the registered ids of the participants (at least one)
     * @param payload what the participants are asked to prepare
     * @param deadline how long the participants have to vote, from now; must be positive (longer than a year is cut to a year)
     * @return the transaction, whose decision can be awaited
     * @throws InvalidTransactionException for an empty set, a malformed id, or a deadline not in the future
     * @throws UnknownParticipantException if an id is not registered in the folder
     * @throws PayloadTooLargeException if the payload is over the coordinator's limit
     * @throws NullPointerException if {@code participants}, one of its ids, {@code payload} or {@code deadline} is null
     * @throws IllegalStateException if the coordinator is closed
     * @throws InterruptedException if interrupted while writing
     */
    public PendingTransaction start(Collection<String> participants, byte[] payload, Duration deadline)
        throws InterruptedException {
        Objects.requireNonNull(payload, "payload must not be null (for no payload, give an empty array)");
        Objects.requireNonNull(deadline, "deadline must not be null");
        if (closed) {
            throw new IllegalStateException("the transaction coordinator of " + layout.folder + " is closed");
        }
        List<String> named = Layout.checkParticipants(participants);
        if (payload.length > maxPayloadBytes) {
            throw new PayloadTooLargeException(layout.folder, payload.length, maxPayloadBytes);
        }
        if (deadline.isNegative() || deadline.isZero()) {
            throw new InvalidTransactionException("deadline must be in the future (a positive duration from now), was "
                + deadline);
        }
        Set<String> registered = registered();
        Set<String> unknown = new HashSet<>(named);
        unknown.removeAll(registered);
        if (!unknown.isEmpty()) {
            throw new UnknownParticipantException(layout.folder, unknown, registered);
        }
        Duration kept = deadline.compareTo(MAX_DEADLINE) > 0 ? MAX_DEADLINE : deadline;
        long startedNanos = System.nanoTime(); // the deadline counts from before the create: never later than the node
        CreatedNode node = client.create().withProtection().withMode(CreateMode.PERSISTENT_SEQUENTIAL)
            .creatingParentContainersIfNeeded()
            .forPathWithStat(ZPaths.join(layout.transactions, Layout.TX_PREFIX), Codec.definition(named, kept, payload));
        client.observer().transactionStarted(layout.folder);
        PendingTransaction tx = new PendingTransaction(client, layout.folder, node.path(), new Transaction(node.name(), named, payload, kept),
            startedNanos, pending::remove);
        pending.add(tx);
        tx.watch();
        return tx;
    }

    /** Longest deadline kept: a year (longer ones are cut to it). */
    static final Duration MAX_DEADLINE = Duration.ofDays(365);

    /**
     * The ids registered in the folder now.
     *
     * @return the ids, read afresh
     * @throws InterruptedException if interrupted while reading
     */
    public Set<String> registeredParticipants() throws InterruptedException {
        return Set.copyOf(registered());
    }

    private Set<String> registered() throws InterruptedException {
        try {
            return new HashSet<>(client.getChildren().forPath(layout.participants));
        } catch (NoNodeException e) {
            return new HashSet<>();
        }
    }

    /**
     * The folder this coordinator starts transactions in.
     *
     * @return its path
     */
    public String folder() {
        return layout.folder;
    }

    /**
     * Stops waiting for the decisions of the transactions still pending: their futures fail, and
     * each is marked as no longer awaited by this coordinator so its nodes can be cleaned up once
     * the participants are done. The transactions themselves go on: the participants decide them.
     *
     * <p>Returns once this coordinator's acknowledgements — of the decisions it read and of the
     * transactions it stops waiting for — and the clean-up after each were written, or failed.
     * Without a connection it returns at once: they are written once the client is back, while it
     * stays open. Close the coordinator before its client: a client closed first cuts them off,
     * and a transaction whose coordinator never acknowledged stays until the participants'
     * retention period ends. If interrupted while waiting, it returns at once with the thread's
     * interrupt status set.
     */
    @Override
    public void close() {
        closed = true;
        List<PendingTransaction> all = List.copyOf(pending);
        for (PendingTransaction tx : all) {
            tx.abandon();
        }
        if (!client.connectionState().isConnected()) {
            // waiting would only sit out the client's connection timeout (24 s measured with the servers frozen and a
            // 15 s session): the acknowledgements are tried again in the background until the client is back
            return;
        }
        try {
            for (PendingTransaction tx : all) {
                tx.awaitSettled();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Configures a {@link TransactionCoordinator}. */
    public static final class Builder {
        private final BatonClient client;
        private final Layout layout;
        private int maxPayloadBytes = DEFAULT_MAX_PAYLOAD_BYTES;

        private Builder(BatonClient client, String folder) {
            this.client = Objects.requireNonNull(client, "client");
            this.layout = new Layout(folder);
        }

        /**
         * Largest payload accepted. Default {@value #DEFAULT_MAX_PAYLOAD_BYTES}.
         *
         * @param bytes 1 to 1,000,000
         * @return this builder
         * @throws IllegalArgumentException if out of range
         */
        public Builder maxPayloadBytes(int bytes) {
            if (bytes < 1 || bytes > 1_000_000) {
                throw new IllegalArgumentException("maxPayloadBytes must be 1 to 1000000 (ZooKeeper's requests stop at 1 MiB), was "
                    + bytes);
            }
            this.maxPayloadBytes = bytes;
            return this;
        }

        /**
         * Builds the coordinator; it writes nothing until {@link TransactionCoordinator#start}.
         *
         * @return the coordinator
         */
        public TransactionCoordinator build() {
            return new TransactionCoordinator(this);
        }
    }
}
