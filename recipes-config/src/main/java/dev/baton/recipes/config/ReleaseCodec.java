package dev.baton.recipes.config;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/**
 * The JSON of the fence ({@code {"release":7,"id":"...","time":...,"oldest":3,"moved":5}}) and of a history entry
 * (the same plus {@code message} and {@code changes}: key, before, after). A value is written as
 * {@code {"text":"..."}} when it is UTF-8 and {@code {"base64":"..."}} otherwise; a missing value
 * as {@code null}.
 */
final class ReleaseCodec {
    /**
     * What the fence says: the latest release's number, the id its writer gave it, the oldest
     * release the history keeps (0 if the fence does not say), and the first release whose history
     * entry is in the history folder next to the base (0 if the fence does not say: a store of the
     * first layout, every entry under the fence).
     */
    record Fence(long release, String id, long oldest, long moved, long time) {
        static final Fence NONE = new Fence(0, "", 0, 0, 0);

        /** A fence without a commit time (the first layout wrote none). */
        Fence(long release, String id, long oldest, long moved) {
            this(release, id, oldest, moved, 0);
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();
    /** The longest fence {@link #scanFence} reads itself. */
    private static final int SCANNED_FENCE_BYTES = 4096;

    private ReleaseCodec() {
    }

    // The fence and the entry are written by hand into a StringBuilder, and the fence is read by hand when it has the
    // shape the writers give it: each release encodes both on the writer's thread before its transaction, and every
    // watching store parses the fence before it tells its listeners, so Jackson's generator and parser set-up (buffers,
    // contexts) were on both ends of a release's path. The bytes are exactly what Jackson's generator wrote before (field
    // order, number form, its escapes): stores written earlier and writers of other versions read them, and
    // ReleaseCodecTest compares the hand-written encoders with Jackson's generator on random text. A fence of any other
    // shape is read by Jackson's parser.

    static byte[] fence(long number, String id, Instant time, long oldest, long moved) {
        StringBuilder s = new StringBuilder(112).append("{\"release\":").append(number).append(",\"id\":");
        quoted(s, id).append(",\"time\":").append(time.toEpochMilli()).append(",\"oldest\":").append(oldest)
            .append(",\"moved\":").append(moved).append('}');
        return s.toString().getBytes(UTF_8);
    }

    /**
     * Appends {@code text} as a JSON string the way Jackson's UTF-8 generator does by default: the quote and the
     * backslash escaped with a backslash, the control characters below U+0020 as the two-character escapes of
     * backspace, tab, newline, form feed and carriage return or else as a backslash-u escape, and every surrogate
     * (each half of a character beyond U+FFFF, or a lone one) as a backslash-u escape too, with four upper-case hex
     * digits; everything else as it is (UTF-8 once encoded).
     */
    private static StringBuilder quoted(StringBuilder s, String text) {
        s.append('"');
        for (int i = 0, n = text.length(); i < n; i++) {
            char c = text.charAt(i);
            if (c >= 0x20 && c != '"' && c != '\\' && !Character.isSurrogate(c)) {
                s.append(c);
            } else if (c == '"' || c == '\\') {
                s.append('\\').append(c);
            } else {
                switch (c) {
                    case '\b' -> s.append("\\b");
                    case '\t' -> s.append("\\t");
                    case '\n' -> s.append("\\n");
                    case '\f' -> s.append("\\f");
                    case '\r' -> s.append("\\r");
                    default -> s.append("\\u").append(HEX[c >> 12]).append(HEX[(c >> 8) & 0xF]).append(HEX[(c >> 4) & 0xF])
                        .append(HEX[c & 0xF]);
                }
            }
        }
        return s.append('"');
    }

    /**
     * The fence's content; a fence that is empty or not ours reads as release 0. Every watcher parses the fence of
     * each release it sees: a fence of the shape the writers give it (see {@link #scanFence}) is read by hand, any
     * other by Jackson's parser, which reads what the tree reading did ({@code release} a number, the others
     * converted as {@code JsonNode.asText}/{@code asLong} would).
     */
    static Fence readFence(byte[] data) {
        if (data.length == 0) {
            return Fence.NONE;
        }
        Fence plain = scanFence(data);
        return plain != null ? plain : readFenceByJackson(data);
    }

    /**
     * Reads a fence of the plain shape every writer gives it — one object, no white space, each field's value a
     * non-negative integer of at most 18 digits or a string of printable ASCII without escapes, {@code release},
     * {@code oldest} and {@code moved} integers and {@code id} a string, nothing after the object, at
     * most 4 KiB — as
     * {@link #readFenceByJackson} would; null for anything else (the caller then asks Jackson).
     */
    static Fence scanFence(byte[] d) {
        int n = d.length;
        // a writer's fence is about 150 bytes; a long one is left to Jackson, whose limits (a name's length) then decide
        if (n < 2 || n > SCANNED_FENCE_BYTES || d[0] != '{' || d[n - 1] != '}') {
            return null;
        }
        boolean hasRelease = false;
        long release = 0;
        String id = "";
        long oldest = 0;
        long moved = 0;
        long time = 0;
        int i = 1;
        while (true) {
            // a field name: printable ASCII, no escape
            if (i >= n || d[i] != '"') {
                return null;
            }
            int nameStart = ++i;
            while (i < n && d[i] != '"') {
                if (d[i] < 0x20 || d[i] == '\\') {
                    return null; // also every byte of a non-ASCII character, which is negative
                }
                i++;
            }
            if (i + 1 >= n || d[i + 1] != ':') {
                return null;
            }
            String name = new String(d, nameStart, i - nameStart, StandardCharsets.US_ASCII);
            i += 2;
            long number = -1;
            String text = null;
            if (i < n && d[i] == '"') {
                int textStart = ++i;
                while (i < n && d[i] != '"') {
                    if (d[i] < 0x20 || d[i] == '\\') {
                        return null;
                    }
                    i++;
                }
                if (i >= n) {
                    return null;
                }
                text = new String(d, textStart, i - textStart, StandardCharsets.US_ASCII);
                i++;
            } else {
                int digitsStart = i;
                number = 0;
                while (i < n && d[i] >= '0' && d[i] <= '9') {
                    number = number * 10 + (d[i] - '0');
                    i++;
                }
                int digits = i - digitsStart;
                if (digits == 0 || digits > 18 || (digits > 1 && d[digitsStart] == '0')) {
                    return null; // not a plain integer (a leading zero is not JSON), or one that might not fit a long
                }
            }
            switch (name) {
                case "release" -> {
                    if (text != null) {
                        return null;
                    }
                    hasRelease = true;
                    release = number;
                }
                case "id" -> {
                    if (text == null) {
                        return null;
                    }
                    id = text;
                }
                case "oldest" -> {
                    if (text != null) {
                        return null;
                    }
                    oldest = number;
                }
                case "moved" -> {
                    if (text != null) {
                        return null;
                    }
                    moved = number;
                }
                case "time" -> {
                    if (text != null) {
                        return null;
                    }
                    time = number;
                }
                default -> {
                    // not ours: ignored
                }
            }
            if (i >= n) {
                return null;
            }
            if (d[i] == '}') {
                return i == n - 1 && hasRelease ? new Fence(release, id, oldest, moved, time) : null;
            }
            if (d[i] != ',') {
                return null;
            }
            i++;
        }
    }

    /** The fence read by Jackson's parser: any shape (see {@link #readFence}); the reference the hand-written scanner matches. */
    static Fence readFenceByJackson(byte[] data) {
        if (data.length == 0) {
            return Fence.NONE;
        }
        try (JsonParser p = JSON.getFactory().createParser(data)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return Fence.NONE;
            }
            boolean hasRelease = false;
            long release = 0;
            String id = "";
            long oldest = 0;
            long moved = 0;
            long time = 0;
            for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
                String name = p.currentName();
                JsonToken value = p.nextToken();
                if (value == JsonToken.START_OBJECT || value == JsonToken.START_ARRAY) {
                    p.skipChildren();
                }
                switch (name) {
                    case "release" -> {
                        hasRelease = fitsLong(p, value);
                        release = hasRelease ? p.getValueAsLong() : 0;
                    }
                    case "id" -> id = value == JsonToken.VALUE_NULL ? "null" : value.isScalarValue() ? p.getText() : "";
                    case "oldest" -> oldest = value.isScalarValue() ? p.getValueAsLong(0) : 0;
                    case "moved" -> moved = value.isScalarValue() ? p.getValueAsLong(0) : 0;
                    case "time" -> time = value.isScalarValue() ? p.getValueAsLong(0) : 0;
                    default -> {
                        // not ours: ignored
                    }
                }
            }
            return hasRelease ? new Fence(release, id, oldest, moved, time) : Fence.NONE;
        } catch (IOException e) {
            return Fence.NONE;
        }
    }

    /** Whether the value is a number that converts to a long ({@code JsonNode.canConvertToLong}). */
    private static boolean fitsLong(JsonParser p, JsonToken value) throws IOException {
        if (value == JsonToken.VALUE_NUMBER_INT) {
            return p.getNumberType() != JsonParser.NumberType.BIG_INTEGER;
        }
        if (value == JsonToken.VALUE_NUMBER_FLOAT) {
            double d = p.getDoubleValue();
            return d >= Long.MIN_VALUE && d <= Long.MAX_VALUE;
        }
        return false;
    }

    static byte[] entry(Release release, String id) {
        StringBuilder s = new StringBuilder(256).append("{\"release\":").append(release.number()).append(",\"id\":");
        quoted(s, id).append(",\"time\":").append(release.time().toEpochMilli()).append(",\"message\":");
        quoted(s, release.message()).append(",\"changes\":[");
        boolean first = true;
        for (Release.Change change : release.changes()) {
            quoted(s.append(first ? "{\"key\":" : ",{\"key\":"), change.key());
            value(s.append(",\"before\":"), change.before());
            value(s.append(",\"after\":"), change.after()).append('}');
            first = false;
        }
        return s.append("]}").toString().getBytes(UTF_8);
    }

    /** A history entry, or empty if the data is not one. */
    static Optional<Release> readEntry(byte[] data) {
        try {
            JsonNode root = JSON.readTree(data);
            if (root == null || !root.path("release").canConvertToLong() || !root.path("changes").isArray()) {
                return Optional.empty();
            }
            List<Release.Change> changes = new ArrayList<>();
            for (JsonNode c : root.path("changes")) {
                changes.add(new Release.Change(c.path("key").asText(), readValue(c.path("before")), readValue(c.path("after"))));
            }
            return Optional.of(new Release(root.path("release").asLong(), Instant.ofEpochMilli(root.path("time").asLong()),
                root.path("message").asText(""), changes));
        } catch (java.io.IOException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** Appends a value: {@code {"text":...}} if it is UTF-8, else {@code {"base64":...}}; {@code null} if missing. */
    private static StringBuilder value(StringBuilder s, Optional<byte[]> value) {
        if (value.isEmpty()) {
            return s.append("null");
        }
        String text = utf8(value.get());
        if (text == null) {
            return s.append("{\"base64\":\"").append(Base64.getEncoder().encodeToString(value.get())).append("\"}");
        }
        return quoted(s.append("{\"text\":"), text).append('}');
    }

    private static Optional<byte[]> readValue(JsonNode node) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return Optional.empty();
        }
        if (node.has("text")) {
            return Optional.of(node.get("text").asText().getBytes(UTF_8));
        }
        return Optional.of(Base64.getDecoder().decode(node.path("base64").asText()));
    }

    /** The bytes as a string if they are valid UTF-8 (so they survive the round trip), else null. */
    private static String utf8(byte[] bytes) {
        boolean ascii = true;
        for (byte b : bytes) {
            if (b < 0) {
                ascii = false;
                break;
            }
        }
        if (ascii) {
            return new String(bytes, StandardCharsets.US_ASCII); // the usual value: no decoder to make
        }
        try {
            return UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT)
                .decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }
}
