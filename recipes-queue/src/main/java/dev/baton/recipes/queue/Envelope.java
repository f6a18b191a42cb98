package dev.baton.recipes.queue;

import java.io.ByteArrayOutputStream;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The data format of a DistributedQueue node, Curator 5.9's, so Curator and Baton read each
 * other's items: a 4-byte version {@code 0x00010001}, then for each item the byte {@code 0x01},
 * its length (4 bytes, big-endian) and its bytes, then the byte {@code 0x02}. Curator's putMulti
 * puts several items in one node; Baton puts one per node and reads both.
 */
final class Envelope {
    static final int VERSION = 0x00010001;
    private static final byte ITEM = 0x01;
    private static final byte END = 0x02;
    /** Bytes the envelope adds around one item. */
    public static final int OVERHEAD = 4 + 1 + 4 + 1;

    private Envelope() {
    }

    /** One item in an envelope. */
    public static byte[] wrap(byte[] item) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(item.length + OVERHEAD);
        ByteBuffer head = ByteBuffer.allocate(9).putInt(VERSION).put(ITEM).putInt(item.length);
        out.write(head.array(), 0, 9);
        out.write(item, 0, item.length);
        out.write(END);
        return out.toByteArray();
    }

    /**
     * The items in a node's data.
     *
     * @throws IllegalArgumentException if the data is not in this format (with what is wrong)
     */
    public static List<byte[]> unwrap(byte[] data) {
        ByteBuffer in = ByteBuffer.wrap(data);
        try {
            int version = in.getInt();
            if (version != VERSION) {
                throw new IllegalArgumentException(String.format("not a queue item: version 0x%08x, expected 0x%08x", version, VERSION));
            }
            List<byte[]> items = new ArrayList<>(1);
            while (true) {
                byte op = in.get();
                if (op == END) {
                    return items;
                }
                if (op != ITEM) {
                    throw new IllegalArgumentException("not a queue item: opcode " + op + " at byte " + (in.position() - 1));
                }
                int size = in.getInt();
                if (size < 0 || size > in.remaining()) {
                    throw new IllegalArgumentException("not a queue item: item size " + size + " with " + in.remaining() + " bytes left");
                }
                byte[] item = new byte[size];
                in.get(item);
                items.add(item);
            }
        } catch (BufferUnderflowException e) {
            throw new IllegalArgumentException("not a queue item: data ends early (" + data.length + " bytes)", e);
        }
    }
}
