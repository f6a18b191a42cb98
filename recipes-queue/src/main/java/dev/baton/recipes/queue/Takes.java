package dev.baton.recipes.queue;

import dev.baton.framework.BatonClient;
import dev.baton.framework.Futures;
import dev.baton.framework.NodeData;
import dev.baton.recipes.queue.Receipts.Commit;
import dev.baton.recipes.queue.Receipts.Receipt;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;

/**
 * Takes items out of a queue: one receipt-guarded transaction deletes every item of a take (one
 * item for a single take), each at the version it was read at, so a take removes exactly what it
 * read or nothing of it. What a lost reply means is the receipt's to say (see {@link Receipts}).
 */
final class Takes {
    private final BatonClient client;
    private final Receipts receipts;

    Takes(BatonClient client, Receipts receipts) {
        this.client = client;
        this.receipts = receipts;
    }

    /**
     * Removes the items read as {@code datas} ({@code refs}' data, same order) in one
     * transaction and returns those it removed, in the given order. An item another
     * consumer took first (or that changed since it was read) is left out: the transaction is
     * sent again without it, and without every other item of it that is gone too (looked up in
     * one round of reads after a refusal), so a take that lost part of its batch to another
     * consumer costs about two writes and a read, not one write per lost item.
     *
     * @throws QueueOutcomeUnknownException if the reply was lost and the session ended before the
     *     outcome could be read (the exception carries every item of that transaction, which
     *     removed all of them or none)
     */
    List<Taken> takeAll(List<ItemRef> refs, List<NodeData> datas) throws InterruptedException {
        if (refs.size() != datas.size()) {
            throw new IllegalArgumentException(refs.size() + " items but " + datas.size() + " data");
        }
        List<ItemRef> left = new ArrayList<>(refs);
        List<NodeData> leftData = new ArrayList<>(datas);
        boolean retriedOnNewSession = false;
        while (!left.isEmpty()) {
            Receipt r = receipts.borrow();
            Commit c = receipts.commit(r, takeNote(left), tx -> {
                for (int i = 0; i < left.size(); i++) {
                    tx.delete(left.get(i).path(), leftData.get(i).stat().getVersion());
                }
            });
            switch (c.outcome()) {
                case APPLIED -> {
                    receipts.release(r);
                    return taken(left, leftData);
                }
                case REJECTED -> {
                    receipts.release(r);
                    // another consumer took that one (or it changed: it will be listed again); the rest are still ours to try
                    int gone = goneIndex(c, left.size());
                    left.remove(gone);
                    leftData.remove(gone);
                    if (left.size() > 1) {
                        // a batch's items are consecutive, so another consumer's batch has likely taken more of
                        // them: look for all of those at once instead of finding them one refused write at a time
                        dropChanged(left, leftData);
                    }
                }
                case NOT_APPLIED -> {
                    receipts.release(r);
                    throw c.error();
                }
                case RECEIPT_LOST -> {
                    receipts.discard(r);
                    // if every item is still there, nothing was applied: try once more on the new session
                    if (!retriedOnNewSession && allExist(left)) {
                        retriedOnNewSession = true;
                        continue;
                    }
                    throw unknownTake(left, leftData, c);
                }
                case UNKNOWN -> {
                    receipts.discard(r);
                    throw unknownTake(left, leftData, c);
                }
            }
        }
        return List.of();
    }

    /** The receipt's note for a take: the (first) item's path. */
    private static byte[] takeNote(List<ItemRef> refs) {
        String first = refs.get(0).path();
        return (refs.size() == 1 ? first : first + " and " + (refs.size() - 1) + " more").getBytes(StandardCharsets.UTF_8);
    }

    private static List<Taken> taken(List<ItemRef> refs, List<NodeData> datas) {
        List<Taken> taken = new ArrayList<>(refs.size());
        for (int i = 0; i < refs.size(); i++) {
            taken.add(new Taken(refs.get(i), datas.get(i).data()));
        }
        return taken;
    }

    /** Which item of a refused take is gone or changed; any other refusal is thrown. */
    private static int goneIndex(Commit c, int items) {
        boolean gone = c.code() == KeeperException.Code.NONODE || c.code() == KeeperException.Code.BADVERSION;
        if (!gone || c.failedIndex() < 0 || c.failedIndex() >= items) {
            throw c.error();
        }
        return c.failedIndex();
    }

    /** Leaves out of {@code refs} (and {@code datas}) the items no longer there at the version read: one round of reads. */
    private void dropChanged(List<ItemRef> refs, List<NodeData> datas) throws InterruptedException {
        List<CompletableFuture<Stat>> stats = new ArrayList<>(refs.size());
        for (ItemRef ref : refs) {
            stats.add(client.checkExists().forPathAsync(ref.path()));
        }
        for (int i = refs.size() - 1; i >= 0; i--) {
            Stat stat = Futures.await(stats.get(i));
            if (stat == null || stat.getVersion() != datas.get(i).stat().getVersion()) {
                refs.remove(i);
                datas.remove(i);
            }
        }
    }

    private boolean allExist(List<ItemRef> refs) throws InterruptedException {
        List<CompletableFuture<Stat>> stats = new ArrayList<>();
        for (ItemRef ref : refs) {
            stats.add(client.checkExists().forPathAsync(ref.path()));
        }
        boolean all = true;
        for (CompletableFuture<Stat> stat : stats) {
            all &= Futures.await(stat) != null;
        }
        return all;
    }

    private static QueueOutcomeUnknownException unknownTake(List<ItemRef> refs, List<NodeData> datas, Commit c) {
        String what = refs.size() == 1 ? refs.get(0).path() : refs.size() + " items from " + refs.get(0).path();
        return new QueueOutcomeUnknownException("take of " + what + ": the reply was lost and the outcome could not be read;"
            + " the item" + (refs.size() == 1 ? "" : "s") + " may have been taken by this call or by another consumer",
            refs.get(0).path(), datas.stream().map(NodeData::data).toList(), c.error());
    }
}
