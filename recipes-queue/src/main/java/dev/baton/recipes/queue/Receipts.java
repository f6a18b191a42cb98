package dev.baton.recipes.queue;

import dev.baton.framework.BatonClient;
import dev.baton.framework.BatonException;
import dev.baton.framework.CreatedNode;
import dev.baton.framework.TransactionBuilder;
import dev.baton.framework.TransactionFailedException;
import dev.baton.framework.TransactionResult;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.function.Consumer;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Receipts make every queue write say afterwards whether it happened, and only in the session
 * that meant it.
 *
 * <p>A receipt is an ephemeral node of this process, {@code <queue>/receipts/r-<uuid>}, lent to
 * one write at a time. Each write is a transaction whose first operation sets the receipt's data
 * at the version the receipt is known to have. So: a transaction re-sent after a lost reply, when
 * the first attempt did apply, fails on that version check instead of applying twice (a put does
 * not duplicate, a take is not mistaken for someone else's); a transaction re-sent on a new
 * session, after the receipt's session ended, fails because the receipt is gone (a lock's owner
 * cannot remove an item after its lock went to another consumer); and after any other failure,
 * reading the receipt's version tells whether the write applied. Only when the session ended
 * while the reply was lost is the outcome unknowable ({@link Outcome#RECEIPT_LOST}).
 */
final class Receipts {
    private static final Logger LOG = LoggerFactory.getLogger(Receipts.class);
    private static final byte[] EMPTY = new byte[0];

    /** What became of a write. */
    public enum Outcome {
        /** It took effect (possibly through an earlier attempt whose reply was lost). */
        APPLIED,
        /** The servers refused it for one of the caller's operations ({@link Commit#failedIndex()}, {@link Commit#code()}); nothing took effect. */
        REJECTED,
        /** It failed (see {@link Commit#error()}), and nothing took effect. */
        NOT_APPLIED,
        /** The receipt's session ended: the write had no effect now, but an earlier attempt may have. */
        RECEIPT_LOST,
        /** It failed and whether it took effect could not be found out (see {@link Commit#error()}). */
        UNKNOWN
    }

    /**
     * The outcome of {@link #commit}. {@code failedIndex} counts the caller's operations from 0
     * (the receipt's own check is not counted); {@code results} are the caller's operations'
     * results when they are known.
     */
    public record Commit(Outcome outcome, int failedIndex, KeeperException.Code code, List<TransactionResult> results,
                         BatonException error) {
    }

    /** One receipt node; lent to one write at a time. */
    public static final class Receipt {
        final String path;
        final long session;
        int version;

        Receipt(String path, long session, int version) {
            this.path = path;
            this.session = session;
            this.version = version;
        }

        /** The session that owns the receipt node (and so every write made with it). */
        public long session() {
            return session;
        }
    }

    /** Receipts shared by every SimpleDistributedQueue of one client and path (those have no close()). */
    private static final Map<BatonClient, Map<String, Receipts>> SHARED = new IdentityHashMap<>();

    private final BatonClient client;
    private final String dir;
    private final ConcurrentLinkedDeque<Receipt> pool = new ConcurrentLinkedDeque<>();

    /**
     * The receipts of {@code client} under {@code dir}, shared, so that short-lived queue objects
     * (a SimpleDistributedQueue per request) reuse receipt nodes instead of leaving one each until
     * the session ends. Entries of closed clients are dropped.
     */
    public static Receipts shared(BatonClient client, String dir) {
        synchronized (SHARED) {
            SHARED.keySet().removeIf(BatonClient::isClosed);
            return SHARED.computeIfAbsent(client, c -> new HashMap<>()).computeIfAbsent(dir, d -> new Receipts(client, d));
        }
    }

    public Receipts(BatonClient client, String dir) {
        this.client = client;
        this.dir = dir;
    }

    /** A receipt of the current session. */
    public Receipt borrow() throws InterruptedException {
        long session = client.sessionId();
        for (Receipt r = pool.pollFirst(); r != null; r = pool.pollFirst()) {
            if (r.session == session) {
                return r;
            }
            // a receipt of an ended session: its node went with the session
        }
        CreatedNode node = client.create().withMode(CreateMode.EPHEMERAL).creatingParentContainersIfNeeded().idempotent()
            .forPathWithStat(dir + "/r-" + UUID.randomUUID(), EMPTY);
        Stat stat = node.stat();
        return new Receipt(node.path(), stat.getEphemeralOwner(), stat.getVersion());
    }

    /** A receipt of {@code session}, or null if that session is no longer the client's. */
    public Receipt borrowFor(long session) throws InterruptedException {
        if (client.sessionId() != session) {
            return null;
        }
        Receipt r = borrow();
        if (r.session != session) {
            release(r);
            return null;
        }
        return r;
    }

    /** Gives back a receipt whose last write's outcome is known. */
    public void release(Receipt r) {
        pool.addFirst(r);
    }

    /** Drops a receipt whose version is no longer known; its node is deleted in the background. */
    public void discard(Receipt r) {
        if (!client.isClosed()) {
            client.delete().quietly().forPathAsync(r.path).exceptionally(e -> null);
        }
    }

    /** Deletes every pooled receipt (in the background). */
    public void close() {
        for (Receipt r = pool.pollFirst(); r != null; r = pool.pollFirst()) {
            discard(r);
        }
    }

    /**
     * Commits the caller's operations together with the receipt's check. {@code note} becomes the
     * receipt's data (what it last did, for whoever looks). The caller releases the receipt after
     * APPLIED, REJECTED and NOT_APPLIED, and discards it otherwise.
     *
     * @throws dev.baton.framework.DataTooLargeException before sending, if the operations are too large
     */
    public Commit commit(Receipt r, byte[] note, Consumer<TransactionBuilder> ops) throws InterruptedException {
        TransactionBuilder tx = client.transaction().setData(r.path, note, r.version);
        ops.accept(tx);
        try {
            List<TransactionResult> results = tx.commit();
            r.version = results.get(0).stat().getVersion();
            return new Commit(Outcome.APPLIED, -1, KeeperException.Code.OK, results.subList(1, results.size()), null);
        } catch (TransactionFailedException e) {
            Commit c = classify(e);
            if (c.outcome() == Outcome.APPLIED) {
                r.version++;
            }
            return c;
        } catch (InterruptedException e) {
            // the write may be on its way: find out before giving up the thread
            Commit c = resolve(r, new BatonException("interrupted while the write was in flight", e));
            Thread.currentThread().interrupt();
            return c;
        } catch (BatonException e) {
            return resolve(r, e);
        }
    }

    /** Classifies a refused transaction whose operation 0 is the receipt check. Pure. */
    public static Commit classify(TransactionFailedException e) {
        if (e.failedIndex() == 0) {
            return switch (e.code()) {
                // the receipt moved on: an earlier attempt of this very transaction applied
                case BADVERSION -> new Commit(Outcome.APPLIED, -1, KeeperException.Code.OK, null, e);
                case NONODE -> new Commit(Outcome.RECEIPT_LOST, 0, e.code(), null, e);
                default -> new Commit(Outcome.REJECTED, -1, e.code(), null, e);
            };
        }
        return new Commit(Outcome.REJECTED, e.failedIndex() - 1, e.code(), null, e);
    }

    /**
     * After a failure that says nothing of the outcome: reads the receipt (after a sync, so the
     * read sees every write the servers committed before it).
     */
    public Commit resolve(Receipt r, BatonException failure) {
        boolean interrupted = Thread.interrupted();
        try {
            client.sync().forPath(r.path);
            Stat stat = client.checkExists().forPath(r.path);
            if (stat == null || stat.getEphemeralOwner() != r.session) {
                return new Commit(Outcome.RECEIPT_LOST, 0, KeeperException.Code.NONODE, null, failure);
            }
            if (stat.getVersion() == r.version + 1) {
                r.version++;
                return new Commit(Outcome.APPLIED, -1, KeeperException.Code.OK, null, failure);
            }
            if (stat.getVersion() == r.version) {
                return new Commit(Outcome.NOT_APPLIED, -1, failure.code(), null, failure);
            }
            LOG.warn("receipt {} is at version {}, expected {} or {}", r.path, stat.getVersion(), r.version, r.version + 1);
            return new Commit(Outcome.UNKNOWN, -1, failure.code(), null, failure);
        } catch (BatonException | InterruptedException e) {
            failure.addSuppressed(e);
            return new Commit(Outcome.UNKNOWN, -1, failure.code(), null, failure);
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
