package dev.baton.recipes.queue;

import dev.baton.framework.Timeouts;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands the items of one node to the consumer: each is tried up to {@code maxAttempts} times,
 * with a growing pause between attempts, and given up as a dead letter after that (or at once if
 * it cannot be deserialized). Nothing is dropped: every item ends consumed or in the result.
 */
final class Delivery<T> {
    private static final Logger LOG = LoggerFactory.getLogger(Delivery.class);
    /** consumeOne's answer when the claim was lost between attempts. */
    private static final String ABANDONED = new String("abandoned");

    /**
     * What became of a node's items: the dead letters to record, and whether the thread was
     * interrupted (by close()) before all were consumed; the unconsumed ones are then in
     * {@code dead} too, marked as such.
     */
    public record Result(List<DeadLetters.Entry> dead, boolean interrupted, boolean abandoned) {
        Result(List<DeadLetters.Entry> dead, boolean interrupted) {
            this(dead, interrupted, false);
        }
    }

    private final QueueConsumer<T> consumer;
    private final QueueSerializer<T> serializer;
    private final int maxAttempts;
    private final Duration backoff;

    public Delivery(QueueConsumer<T> consumer, QueueSerializer<T> serializer, int maxAttempts, Duration backoff) {
        this.consumer = consumer;
        this.serializer = serializer;
        this.maxAttempts = maxAttempts;
        this.backoff = backoff;
    }

    /**
     * Consumes the items in node {@code itemPath}'s data. Before each attempt {@code stillOurs}
     * is asked; if it says no (the claim was lost), the rest is abandoned (result
     * {@code abandoned}): another consumer has the item now.
     */
    public Result run(String itemPath, byte[] data, BooleanSupplier stillOurs) {
        List<byte[]> items;
        try {
            items = Envelope.unwrap(data);
        } catch (IllegalArgumentException e) {
            return new Result(List.of(new DeadLetters.Entry(itemPath, data, "unreadable item data: " + e.getMessage())), false);
        }
        List<DeadLetters.Entry> dead = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            try {
                if (!stillOurs.getAsBoolean()) {
                    return new Result(List.of(), false, true);
                }
                String failure = consumeOne(items.get(i), stillOurs);
                if (failure == ABANDONED) {
                    return new Result(List.of(), false, true);
                }
                if (failure != null) {
                    dead.add(new DeadLetters.Entry(itemPath, items.get(i), failure));
                }
            } catch (InterruptedException e) {
                for (int j = i; j < items.size(); j++) {
                    dead.add(new DeadLetters.Entry(itemPath, items.get(j), "not consumed: the queue was closed while the consumer ran"));
                }
                Thread.currentThread().interrupt();
                return new Result(dead, true);
            }
        }
        return new Result(dead, false);
    }

    /** The dead-letter entries for a node whose items cannot be consumed, for {@code reason}. */
    public static List<DeadLetters.Entry> entriesFor(String itemPath, byte[] data, String reason) {
        try {
            List<DeadLetters.Entry> out = new ArrayList<>();
            for (byte[] item : Envelope.unwrap(data)) {
                out.add(new DeadLetters.Entry(itemPath, item, reason));
            }
            return out;
        } catch (IllegalArgumentException e) {
            return List.of(new DeadLetters.Entry(itemPath, data, reason));
        }
    }

    /**
     * The pause before attempt {@code attempt + 1}: {@code attempt} times the backoff, without
     * overflowing for a backoff too long to count (which would throw here, after the item was
     * taken, and lose it in plain mode).
     */
    static long pauseMillis(Duration backoff, int attempt) {
        long base = Timeouts.millis(backoff);
        return base > Long.MAX_VALUE / attempt ? Long.MAX_VALUE : base * attempt;
    }

    /** Null if consumed; otherwise why it was given up. */
    private String consumeOne(byte[] raw, BooleanSupplier stillOurs) throws InterruptedException {
        T item;
        try {
            item = serializer.deserialize(raw);
        } catch (RuntimeException e) {
            return "deserialize failed: " + e;
        }
        Throwable last = null;
        for (int attempt = 1; attempt <= maxAttempts; attempt++) {
            try {
                consumer.consumeMessage(item);
                return null;
            } catch (InterruptedException e) {
                throw e;
            } catch (Exception | LinkageError | AssertionError e) {
                last = e;
                LOG.warn("consumer failed on attempt {} of {}: {}", attempt, maxAttempts, e.toString());
                if (attempt < maxAttempts) {
                    Thread.sleep(pauseMillis(backoff, attempt));
                    if (!stillOurs.getAsBoolean()) {
                        return ABANDONED;
                    }
                }
            }
        }
        return DeadLetters.describe(last, maxAttempts);
    }
}
