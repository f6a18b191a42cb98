package dev.baton.recipes.group;

import java.util.regex.Pattern;

/**
 * Names of nodes made by protected sequential creates, {@code _c_<uuid>-<prefix><10 digits>}:
 * the part a person reads (without the protection), and the sequence number. Pure functions.
 */
final class ProtectedNames {
    /** Curator's protection marker: {@code _c_}, a 36-character UUID, {@code -}. */
    private static final Pattern PROTECTION = Pattern.compile("_c_[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}-");
    private static final int PROTECTION_LENGTH = 40;
    /** ZooKeeper's sequence suffix: 10 digits. */
    static final int SEQUENCE_DIGITS = 10;

    private ProtectedNames() {
    }

    /** {@code nodeName} without a protection prefix (unchanged if it has none). */
    static String withoutProtection(String nodeName) {
        if (nodeName.length() >= PROTECTION_LENGTH && PROTECTION.matcher(nodeName.substring(0, PROTECTION_LENGTH)).matches()) {
            return nodeName.substring(PROTECTION_LENGTH);
        }
        return nodeName;
    }

    /** The sequence number at the end of {@code name}, or -1 if it does not end with 10 digits. */
    static long sequence(String name) {
        if (name.length() < SEQUENCE_DIGITS) {
            return -1;
        }
        long value = 0;
        for (int i = name.length() - SEQUENCE_DIGITS; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }
}
