package dev.baton.recipes.queue;

import dev.baton.framework.BatonClient;
import dev.baton.framework.DataTooLargeException;
import dev.baton.framework.NoNodeException;
import dev.baton.framework.NodeData;
import dev.baton.framework.TransactionBuilder;
import dev.baton.recipes.queue.Receipts.Commit;
import dev.baton.recipes.queue.Receipts.Receipt;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.zookeeper.CreateMode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The dead-letter path: {@code <deadLetterPath>/dead-<seq>} persistent sequential nodes whose
 * data is {@code "BDL1"}, the error, the item's original node path (each as a 4-byte length and
 * UTF-8), then the item's bytes.
 */
final class DeadLetters {
    private static final Logger LOG = LoggerFactory.getLogger(DeadLetters.class);
    private static final int MAGIC = 0x42444c31; // "BDL1"
    /** Errors are cut to this many characters; one of an item that only just fitted its put is cut further, to fit. */
    static final int MAX_ERROR_CHARS = 2_000;
    private static final byte[] NOTE = "dead letter".getBytes(StandardCharsets.UTF_8);

    /** One item to record. */
    public record Entry(String itemPath, byte[] item, String error) {
        public Entry {
            error = error.length() > MAX_ERROR_CHARS ? error.substring(0, MAX_ERROR_CHARS) + "..." : error;
        }

        /**
         * This entry with {@code excessBytes} (and a little more) cut from the end of its error, for a dead
         * letter of an item that only just fitted its put; null if the error is too short to give that much.
         */
        Entry withErrorCutBy(int excessBytes) {
            byte[] bytes = error.getBytes(StandardCharsets.UTF_8);
            // 32: the marker, and a character the cut may split (decoded as one replacement character)
            int keep = bytes.length - excessBytes - 32;
            return keep < 0 ? null : new Entry(itemPath, item, new String(bytes, 0, keep, StandardCharsets.UTF_8) + " [cut to fit]");
        }
    }

    private final BatonClient client;
    private final String path;
    private final Receipts receipts;

    public DeadLetters(BatonClient client, String path, Receipts receipts) {
        this.client = client;
        this.path = path;
        this.receipts = receipts;
    }

    /** Adds the creates of {@code entries} to a transaction. */
    public void addTo(TransactionBuilder tx, List<Entry> entries) {
        for (Entry e : entries) {
            tx.create(path + "/dead-", encode(e), CreateMode.PERSISTENT_SEQUENTIAL);
        }
    }

    /** Records {@code entries}, each in its own receipt-guarded transaction (so none is recorded twice). */
    public void write(List<Entry> entries) throws InterruptedException {
        for (Entry e : entries) {
            ensurePath();
            Receipt r = receipts.borrow();
            Commit c;
            try {
                c = receipts.commit(r, NOTE, tx -> addTo(tx, List.of(e)));
            } catch (DataTooLargeException tooLarge) {
                // the item fitted its put, but not with the error and its path beside it: cut the error to fit
                Entry cut = e.withErrorCutBy(tooLarge.size() - tooLarge.limit());
                if (cut == null) {
                    receipts.release(r); // refused before anything was sent
                    throw tooLarge;
                }
                c = receipts.commit(r, NOTE, tx -> addTo(tx, List.of(cut)));
            }
            switch (c.outcome()) {
                case APPLIED -> receipts.release(r);
                case REJECTED, NOT_APPLIED -> {
                    receipts.release(r);
                    LOG.error("could not record dead letter for {} ({} bytes, error: {})", e.itemPath(), e.item().length, e.error(), c.error());
                }
                case RECEIPT_LOST, UNKNOWN -> {
                    receipts.discard(r);
                    LOG.error("dead letter for {} may not have been recorded ({} bytes, error: {})", e.itemPath(), e.item().length,
                        e.error(), c.error());
                }
            }
        }
    }

    /** Creates the dead-letter path (persistent; missing parents as containers). */
    public void ensurePath() throws InterruptedException {
        try {
            client.create().creatingParentContainersIfNeeded().forPath(path);
        } catch (dev.baton.framework.NodeExistsException e) {
            // there already
        }
    }

    /** Up to {@code max} dead letters, oldest first. */
    public List<DeadLetter> read(int max) throws InterruptedException {
        List<String> names;
        try {
            names = new ArrayList<>(client.getChildren().forPath(path));
        } catch (NoNodeException e) {
            return List.of();
        }
        names.sort(Comparator.comparingLong(ItemNames::sequence));
        List<DeadLetter> out = new ArrayList<>();
        for (String name : names) {
            if (out.size() >= max) {
                break;
            }
            try {
                NodeData data = client.getData().forPathWithStat(path + "/" + name);
                out.add(decode(path + "/" + name, data.data()));
            } catch (NoNodeException e) {
                // removed meanwhile
            } catch (IllegalArgumentException e) {
                out.add(new DeadLetter(path + "/" + name, null, "unreadable dead letter: " + e.getMessage(), new byte[0]));
            }
        }
        return out;
    }

    static byte[] encode(Entry e) {
        byte[] error = e.error().getBytes(StandardCharsets.UTF_8);
        byte[] source = e.itemPath().getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(12 + error.length + source.length + e.item().length)
            .putInt(MAGIC).putInt(error.length).put(error).putInt(source.length).put(source).put(e.item()).array();
    }

    static DeadLetter decode(String nodePath, byte[] data) {
        try {
            ByteBuffer in = ByteBuffer.wrap(data);
            if (in.getInt() != MAGIC) {
                throw new IllegalArgumentException("no BDL1 header");
            }
            byte[] error = new byte[in.getInt()];
            in.get(error);
            byte[] source = new byte[in.getInt()];
            in.get(source);
            byte[] item = new byte[in.remaining()];
            in.get(item);
            return new DeadLetter(nodePath, new String(source, StandardCharsets.UTF_8), new String(error, StandardCharsets.UTF_8), item);
        } catch (RuntimeException ex) {
            if (ex instanceof IllegalArgumentException iae) {
                throw iae;
            }
            throw new IllegalArgumentException("truncated (" + data.length + " bytes)", ex);
        }
    }

    /** Describes a consumer failure for the record. */
    public static String describe(Throwable t, int attempts) {
        return "consumer failed " + attempts + " time(s); last: " + t;
    }
}
