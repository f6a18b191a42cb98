package dev.baton.server;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;

/**
 * Just enough ASN.1 DER encoding to write an X.509 certificate: the JDK can read and sign
 * certificates but has no public API to build one, and a library (BouncyCastle) or a child
 * process per step ({@code keytool}) would cost a dependency or seconds per run.
 */
final class Der {
    private static final DateTimeFormatter UTC_TIME = DateTimeFormatter.ofPattern("yyMMddHHmmss'Z'");

    private Der() {
    }

    static byte[] sequence(byte[]... parts) {
        return tagged(0x30, concat(parts));
    }

    static byte[] set(byte[]... parts) {
        return tagged(0x31, concat(parts));
    }

    static byte[] integer(BigInteger value) {
        return tagged(0x02, value.toByteArray());
    }

    static byte[] bool(boolean value) {
        return tagged(0x01, new byte[] {(byte) (value ? 0xff : 0x00)});
    }

    static byte[] octets(byte[] value) {
        return tagged(0x04, value);
    }

    /** A BIT STRING of whole bytes (no unused bits), as signatures are. */
    static byte[] bits(byte[] value) {
        byte[] content = new byte[value.length + 1];
        System.arraycopy(value, 0, content, 1, value.length);
        return tagged(0x03, content);
    }

    static byte[] utf8(String value) {
        return tagged(0x0c, value.getBytes(StandardCharsets.UTF_8));
    }

    /** UTCTime, good for dates up to 2049, as RFC 5280 asks for them. */
    static byte[] utcTime(ZonedDateTime time) {
        return tagged(0x17, UTC_TIME.format(time.withZoneSameInstant(ZoneOffset.UTC)).getBytes(StandardCharsets.US_ASCII));
    }

    /** A context-specific constructed tag {@code [n]} around an encoded value (EXPLICIT tagging). */
    static byte[] explicit(int n, byte[] encoded) {
        return tagged(0xa0 | n, encoded);
    }

    /** A context-specific primitive tag {@code [n]} over raw content (IMPLICIT tagging of a primitive). */
    static byte[] implicit(int n, byte[] content) {
        return tagged(0x80 | n, content);
    }

    static byte[] oid(String dotted) {
        String[] arcs = dotted.split("\\.");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(Integer.parseInt(arcs[0]) * 40 + Integer.parseInt(arcs[1]));
        for (int i = 2; i < arcs.length; i++) {
            long arc = Long.parseLong(arcs[i]);
            // base 128, most significant group first, every byte but the last with the high bit set
            int groups = 1;
            for (long rest = arc >>> 7; rest != 0; rest >>>= 7) {
                groups++;
            }
            for (int g = groups - 1; g >= 0; g--) {
                int b = (int) ((arc >>> (7 * g)) & 0x7f);
                out.write(g == 0 ? b : b | 0x80);
            }
        }
        return tagged(0x06, out.toByteArray());
    }

    static byte[] tagged(int tag, byte[] content) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(content.length + 6);
        out.write(tag);
        int length = content.length;
        if (length < 0x80) {
            out.write(length);
        } else {
            int bytes = (32 - Integer.numberOfLeadingZeros(length) + 7) / 8;
            out.write(0x80 | bytes);
            for (int i = bytes - 1; i >= 0; i--) {
                out.write(length >>> (8 * i));
            }
        }
        out.writeBytes(content);
        return out.toByteArray();
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }
}
