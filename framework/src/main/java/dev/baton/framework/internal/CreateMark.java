package dev.baton.framework.internal;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.UUID;

/**
 * The mark a session-protected create writes ahead of the node's data, so that the create can
 * tell its own node from the other nodes of its session.
 *
 * <p>Why: every session-protected create of one session in one folder names its node
 * {@code x-<sessionId>-<name>[<seq>]}, so after a lost reply the name cannot say which of the
 * session's creates made a node (two {@code WriteLock}s of one client, or a retry whose first
 * request never arrived, would adopt a sibling). Each such create draws a random id and stores
 * {@code MAGIC (8 bytes) + id (16 bytes) + the caller's data}; recovery and clean-up read a
 * candidate's data and touch the node only if it carries their own id.
 *
 * <p>Readers: {@code getData()}, and so every cache and recipe built on it, returns the caller's
 * data without the mark. A node's data counts as marked only if the node's name starts with
 * {@code x-} and its data starts with the 8-byte magic ({@code 00 'b' 'a' 't' 'o' 'n' 'x' 01}), so a
 * node written by anyone else — ZooKeeper's own {@code WriteLock} recipe writes {@code 12 34} —
 * reads exactly as stored. Once the data is set again the mark is gone and plain data reads as
 * is. What the mark does not hide: a raw ZooKeeper reader sees the 24 bytes, and the node's
 * {@code Stat.getDataLength()} counts them.
 */
final class CreateMark {
    /** Bytes the mark adds to a node's data. */
    static final int LENGTH = 24;
    private static final byte[] MAGIC = {0x00, 'b', 'a', 't', 'o', 'n', 'x', 0x01};
    private static final String SESSION_PREFIX = "x-";

    private CreateMark() {
    }

    /** What a create with {@code id} stores: the mark, then {@code data}. */
    static byte[] mark(UUID id, byte[] data) {
        return ByteBuffer.allocate(LENGTH + data.length).put(MAGIC)
            .putLong(id.getMostSignificantBits()).putLong(id.getLeastSignificantBits()).put(data).array();
    }

    /** Whether {@code stored} (a node's data as the server has it) was written by the create with {@code id}. */
    static boolean carries(byte[] stored, UUID id) {
        if (!marked(stored)) {
            return false;
        }
        ByteBuffer idBytes = ByteBuffer.wrap(stored, MAGIC.length, 16);
        return idBytes.getLong() == id.getMostSignificantBits() && idBytes.getLong() == id.getLeastSignificantBits();
    }

    /** The data a reader of {@code serverPath} gets: {@code stored} without its mark, if it has one. */
    static byte[] userData(String serverPath, byte[] stored) {
        if (!marked(stored) || !Paths.name(serverPath).startsWith(SESSION_PREFIX)) {
            return stored;
        }
        return Arrays.copyOfRange(stored, LENGTH, stored.length);
    }

    private static boolean marked(byte[] stored) {
        return stored != null && stored.length >= LENGTH && Arrays.equals(stored, 0, MAGIC.length, MAGIC, 0, MAGIC.length);
    }
}
