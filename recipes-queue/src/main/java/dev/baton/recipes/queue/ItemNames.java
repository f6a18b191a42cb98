package dev.baton.recipes.queue;

import java.util.Locale;

/**
 * Making and reading item and shard node names: pure functions, no I/O.
 *
 * <p>The formats are Curator 5.9's (see {@link ItemOrder}); ZooKeeper appends a 10-digit
 * sequence number to every sequential node name.
 */
final class ItemNames {
    /** Prefix of the shard nodes under a queue path: {@code shard-<seq>}. */
    public static final String SHARD_PREFIX = "shard-";
    /** Separator of the delay and id parts, as Curator writes it. */
    public static final char SEPARATOR = '|';
    private static final int SEQUENCE_DIGITS = 10;

    private ItemNames() {
    }

    /** The part after the prefix and before the sequence for a priority item. */
    public static String priorityPart(int priority) {
        return (priority >= 0 ? "1" : "0") + String.format(Locale.ROOT, "%08X", priority & 0xFFFFFFFFL);
    }

    /** The part after the prefix and before the sequence for a delayed item. */
    public static String delayPart(long deliverAtEpochMillis) {
        return SEPARATOR + String.format(Locale.ROOT, "%08X", deliverAtEpochMillis) + SEPARATOR;
    }

    /** The part after the prefix and before the sequence for an item with an id ('/' and '|' become '_'). */
    public static String idPart(String id) {
        return SEPARATOR + cleanId(id) + SEPARATOR;
    }

    /** The id as it appears in node names: '/' and '|' cannot appear there and become '_'. */
    public static String cleanId(String id) {
        return id.replace('/', '_').replace(SEPARATOR, '_');
    }

    /** The sequence number of a sequential node's name, or -1 if the name does not end with one. */
    public static long sequence(String name) {
        if (name.length() < SEQUENCE_DIGITS) {
            return -1;
        }
        String digits = name.substring(name.length() - SEQUENCE_DIGITS);
        for (int i = 0; i < digits.length(); i++) {
            if (!Character.isDigit(digits.charAt(i))) {
                return -1;
            }
        }
        return Long.parseLong(digits);
    }

    /** The shard's sequence number if {@code name} is a shard node's name, else -1. */
    public static long shardSequence(String name) {
        return name.startsWith(SHARD_PREFIX) && name.length() == SHARD_PREFIX.length() + SEQUENCE_DIGITS ? sequence(name) : -1;
    }

    /**
     * The key of item {@code name} in shard {@code shard} (-1: directly under the queue path), or
     * null if {@code name} is not an item of this queue (a foreign node, a shard, a helper node).
     * A priority or delay part that cannot be read counts as 0, as Curator reads it.
     */
    public static ItemKey key(ItemOrder order, String prefix, String name, long shard) {
        if (!name.startsWith(prefix)) {
            return null;
        }
        long sequence = sequence(name);
        if (sequence < 0 || name.length() < prefix.length() + SEQUENCE_DIGITS) {
            return null;
        }
        String middle = name.substring(prefix.length(), name.length() - SEQUENCE_DIGITS);
        long primary = switch (order) {
            case FIFO, ID -> 0;
            case PRIORITY -> priorityOf(middle);
            case DELAY -> epochOf(middle);
        };
        return new ItemKey(primary, shard, sequence);
    }

    /** The (cleaned) id of an id-queue item name, or null if it carries none. */
    public static String idOf(String prefix, String name) {
        if (!name.startsWith(prefix)) {
            return null;
        }
        int first = name.indexOf(SEPARATOR, prefix.length());
        int second = first < 0 ? -1 : name.indexOf(SEPARATOR, first + 1);
        return second < 0 ? null : name.substring(first + 1, second);
    }

    private static long priorityOf(String middle) {
        if (middle.length() != 9 || (middle.charAt(0) != '0' && middle.charAt(0) != '1')) {
            return 0;
        }
        try {
            return (int) Long.parseLong(middle.substring(1), 16);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static long epochOf(String middle) {
        if (middle.length() < 3 || middle.charAt(0) != SEPARATOR || middle.charAt(middle.length() - 1) != SEPARATOR) {
            return 0;
        }
        try {
            return Long.parseLong(middle.substring(1, middle.length() - 1), 16);
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
