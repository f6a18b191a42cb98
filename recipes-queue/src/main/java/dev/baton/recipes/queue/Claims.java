package dev.baton.recipes.queue;

import dev.baton.framework.BatonClient;
import dev.baton.framework.CreatedNode;
import dev.baton.framework.DataTooLargeException;
import dev.baton.framework.NodeData;
import dev.baton.framework.NoNodeException;
import dev.baton.framework.NodeExistsException;
import dev.baton.recipes.queue.Receipts.Commit;
import dev.baton.recipes.queue.Receipts.Receipt;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.zookeeper.CreateMode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Guaranteed delivery: an item is claimed by an ephemeral lock node, {@code <lockPath>/<lockName>}
 * (Curator's lock names for items directly under the queue path), and removed only after its
 * consumer returned, in one transaction with its lock.
 *
 * <p>Why it cannot deliver one item to two live consumers (CURATOR-605): the item is read only
 * after its lock is taken, so an item acknowledged between a consumer's listing and its lock is
 * seen to be gone; and the acknowledgement carries the receipt of the lock's own session, so a
 * consumer whose session ended (and whose lock another consumer may now hold) cannot remove the
 * item or the other's lock: its transaction fails on the missing receipt and the item stays for
 * the new holder. What ZooKeeper cannot prevent: a consumer paused past its session timeout runs
 * its consumer to the end while another consumer runs it too; only one of them removes it.
 */
final class Claims {
    private static final Logger LOG = LoggerFactory.getLogger(Claims.class);

    /** An item this process holds the lock of. */
    public record Claim(ItemRef ref, String lock, Receipt receipt, NodeData data) {
    }

    private final BatonClient client;
    private final QueueStore store;
    private final String lockPath;
    private final DeadLetters deadLetters;
    private final String owner = "baton-queue " + UUID.randomUUID();
    private final AtomicLong claimed = new AtomicLong();
    /** Lock names this process holds: never claimed twice (a lock node of our own would look like a success). */
    private final Set<String> held = ConcurrentHashMap.newKeySet();

    public Claims(BatonClient client, QueueStore store, String lockPath, DeadLetters deadLetters) {
        this.client = client;
        this.store = store;
        this.lockPath = lockPath;
        this.deadLetters = deadLetters;
    }

    /** Creates the lock path (a persistent node, missing parents as containers) if it is not there. */
    public void ensureLockPath() throws InterruptedException {
        try {
            client.create().creatingParentContainersIfNeeded().forPath(lockPath);
        } catch (NodeExistsException e) {
            // there already
        }
    }

    /** Locks and reads the item; null if another consumer holds it or it is gone. */
    public Claim tryClaim(ItemRef ref) throws InterruptedException {
        if (!held.add(ref.lockName())) {
            return null;
        }
        boolean claimedIt = false;
        try {
            Claim claim = lockAndRead(ref);
            claimedIt = claim != null;
            return claim;
        } finally {
            if (!claimedIt) {
                held.remove(ref.lockName());
            }
        }
    }

    private Claim lockAndRead(ItemRef ref) throws InterruptedException {
        String lock = lockPath + "/" + ref.lockName();
        // unique data: idempotent() then accepts our own node after a lost reply, and only that one
        byte[] data = (owner + " #" + claimed.incrementAndGet()).getBytes(StandardCharsets.UTF_8);
        CreatedNode node;
        try {
            node = client.create().withMode(CreateMode.EPHEMERAL).creatingParentContainersIfNeeded().idempotent()
                .forPathWithStat(lock, data);
        } catch (NodeExistsException | NoNodeException e) {
            return null; // held by another consumer (NoNode: released while we looked at it)
        }
        Receipt receipt = store.receipts().borrowFor(node.stat().getEphemeralOwner());
        if (receipt == null) {
            return null; // the lock's session already ended, and the lock with it
        }
        NodeData item = store.read(ref);
        if (item == null) {
            unlock(lock, receipt); // acknowledged by its holder after we listed it
            return null;
        }
        return new Claim(ref, lock, receipt, item);
    }

    /**
     * Removes the item and its lock, and records {@code dead} letters, atomically. Returns true if
     * this process removed it; false if the claim was lost (the item will be delivered again) or
     * the outcome is unknown (logged).
     */
    public boolean ack(Claim claim, List<DeadLetters.Entry> dead) throws InterruptedException {
        try {
            return acknowledge(claim, dead);
        } finally {
            held.remove(claim.ref().lockName());
        }
    }

    private boolean acknowledge(Claim claim, List<DeadLetters.Entry> dead) throws InterruptedException {
        if (!dead.isEmpty()) {
            deadLetters.ensurePath();
        }
        List<DeadLetters.Entry> pending = dead;
        for (int attempt = 0; ; attempt++) {
            Commit c;
            try {
                c = commitAck(claim, pending);
            } catch (DataTooLargeException e) {
                // item and dead letters do not fit one request: record the letters first (a crash
                // in between may record them twice, never lose them)
                deadLetters.write(pending);
                pending = List.of();
                c = commitAck(claim, pending);
            }
            switch (c.outcome()) {
                case APPLIED -> {
                    store.receipts().release(claim.receipt());
                    reportAck(dead.size());
                    return true;
                }
                case REJECTED -> {
                    store.receipts().release(claim.receipt());
                    LOG.warn("{} was removed or changed by someone else while its lock was held ({}); not acknowledged",
                        claim.ref().path(), c.code());
                    if (c.failedIndex() == 0) {
                        unlock(claim.lock(), claim.receipt());
                    }
                    return false;
                }
                case NOT_APPLIED -> {
                    if (attempt < 2) {
                        continue; // the servers answered the receipt read: try again
                    }
                    LOG.warn("could not acknowledge {}: {}; giving it back for another delivery", claim.ref().path(),
                        c.error().getMessage());
                    unlock(claim.lock(), claim.receipt());
                    return false;
                }
                case UNKNOWN -> {
                    store.receipts().discard(claim.receipt());
                    LOG.warn("could not acknowledge {} nor tell whether it was: {}; if it was not, it stays locked until this"
                        + " session ends, then is delivered again", claim.ref().path(), c.error() == null ? "" : c.error().getMessage());
                    return false;
                }
                case RECEIPT_LOST -> {
                    store.receipts().discard(claim.receipt());
                    LOG.warn("the session holding {} ended before it was acknowledged; it will be delivered again", claim.ref().path());
                    return false;
                }
            }
        }
    }

    private void reportAck(int deadLettered) {
        store.tookSeen(1);
        if (deadLettered > 0) {
            client.observer().queueItemsDeadLettered(store.path(), deadLettered);
        }
    }

    private Commit commitAck(Claim claim, List<DeadLetters.Entry> dead) throws InterruptedException {
        byte[] note = claim.ref().path().getBytes(StandardCharsets.UTF_8);
        int version = claim.data().stat().getVersion();
        return store.receipts().commit(claim.receipt(), note, tx -> {
            tx.delete(claim.ref().path(), version).delete(claim.lock());
            deadLetters.addTo(tx, dead);
        });
    }

    /**
     * Whether the claim's session is still the client's. A claim whose session ended is lost (its
     * lock went with the session and another consumer may hold the item now): it must not be
     * consumed. Checked before each delivery attempt; a session ending later is ZooKeeper's
     * unavoidable window, covered by the acknowledgement failing.
     */
    public boolean stillHeld(Claim claim) {
        return client.sessionId() == claim.receipt().session();
    }

    /** Forgets a claim that was lost with its session. */
    public void drop(Claim claim) {
        held.remove(claim.ref().lockName());
        LOG.info("the session holding {} ended before it was consumed; another consumer gets it", claim.ref().path());
    }

    /** Gives the item back without removing it (its lock deleted, only if still this session's). */
    public void release(Claim claim) throws InterruptedException {
        try {
            unlock(claim.lock(), claim.receipt());
        } finally {
            held.remove(claim.ref().lockName());
        }
    }

    private void unlock(String lock, Receipt receipt) throws InterruptedException {
        Commit c = store.receipts().commit(receipt, lock.getBytes(StandardCharsets.UTF_8), tx -> tx.delete(lock));
        switch (c.outcome()) {
            case APPLIED, REJECTED, NOT_APPLIED -> store.receipts().release(receipt);
            case RECEIPT_LOST, UNKNOWN -> store.receipts().discard(receipt);
        }
    }
}
