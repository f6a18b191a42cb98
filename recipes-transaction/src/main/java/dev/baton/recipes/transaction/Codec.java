package dev.baton.recipes.transaction;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The bytes of a folder's nodes.
 *
 * <p>A transaction node holds {@code "btx1"}, the deadline in milliseconds (8 bytes), the number
 * of participants (4 bytes) and each id (modified UTF-8, as {@link DataOutputStream#writeUTF}),
 * the payload's length (4 bytes) and the payload. Votes, decisions and acknowledgements are UTF-8
 * text a person can read with {@code baton get}: {@code commit} or {@code abort}, then, for a
 * decision or an abort vote, a line with the reason.
 */
final class Codec {
    private static final byte[] MAGIC = {'b', 't', 'x', '1'};

    private Codec() {
    }

    static byte[] definition(List<String> participants, Duration deadline, byte[] payload) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(payload.length + 64);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.write(MAGIC);
            out.writeLong(deadline.toMillis());
            out.writeInt(participants.size());
            for (String p : participants) {
                out.writeUTF(p);
            }
            out.writeInt(payload.length);
            out.write(payload);
        } catch (IOException e) {
            throw new UncheckedIOException("writing to memory cannot fail", e);
        }
        return bytes.toByteArray();
    }

    /** The transaction stored in node {@code id}'s data. */
    static Transaction transaction(String id, byte[] data) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(data))) {
            byte[] magic = new byte[MAGIC.length];
            in.readFully(magic);
            if (!java.util.Arrays.equals(magic, MAGIC)) {
                throw new TransactionException("node " + id + " does not hold a transaction: its data starts with "
                    + new String(magic, UTF_8) + ", expected btx1");
            }
            Duration deadline = Duration.ofMillis(in.readLong());
            int count = in.readInt();
            if (count < 1 || count > data.length) {
                throw new TransactionException("node " + id + " names " + count + " participants");
            }
            List<String> participants = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                participants.add(in.readUTF());
            }
            byte[] payload = new byte[in.readInt()];
            in.readFully(payload);
            return new Transaction(id, participants, payload, deadline);
        } catch (IOException | RuntimeException e) {
            if (e instanceof TransactionException t) {
                throw t;
            }
            throw new TransactionException("node " + id + " does not hold a readable transaction: " + e, e);
        }
    }

    static byte[] vote(Vote vote, String reason) {
        return text(vote == Vote.COMMIT ? "commit" : "abort", reason);
    }

    static Vote vote(byte[] data) {
        return firstLine(data).equals("commit") ? Vote.COMMIT : Vote.ABORT;
    }

    static byte[] decision(Decision decision) {
        return text(decision.isCommit() ? "commit" : "abort", decision.reason());
    }

    static Decision decision(byte[] data) {
        String text = new String(data, UTF_8);
        int newline = text.indexOf('\n');
        Outcome outcome = firstLine(data).equals("commit") ? Outcome.COMMIT : Outcome.ABORT;
        return new Decision(outcome, newline < 0 ? "" : text.substring(newline + 1));
    }

    static byte[] ack(Outcome outcome) {
        return text(outcome == Outcome.COMMIT ? "commit" : "abort", null);
    }

    private static byte[] text(String word, String reason) {
        return (reason == null || reason.isEmpty() ? word : word + "\n" + reason).getBytes(UTF_8);
    }

    private static String firstLine(byte[] data) {
        String text = new String(data, UTF_8);
        int newline = text.indexOf('\n');
        return newline < 0 ? text : text.substring(0, newline);
    }
}
