package dev.baton.recipes.config;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
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
    record Fence(long release, String id, long oldest, long moved) {
        static final Fence NONE = new Fence(0, "", 0, 0);
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private ReleaseCodec() {
    }

    // The fence and the entry are written with a streaming generator, not a tree: a release encodes both on the writer's
    // thread before its transaction, and the tree's allocations were a measurable part of a release's client time.
    // Field order is the tree's was, so the bytes are the same as before.

    static byte[] fence(long number, String id, Instant time, long oldest, long moved) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(128);
        try (JsonGenerator g = JSON.getFactory().createGenerator(out)) {
            g.writeStartObject();
            g.writeNumberField("release", number);
            g.writeStringField("id", id);
            g.writeNumberField("time", time.toEpochMilli());
            g.writeNumberField("oldest", oldest);
            g.writeNumberField("moved", moved);
            g.writeEndObject();
        } catch (IOException e) {
            throw new IllegalStateException("cannot write release JSON", e);
        }
        return out.toByteArray();
    }

    /**
     * The fence's content; a fence that is empty or not ours reads as release 0. Every watcher parses the fence of
     * each release it sees, so this streams over the fields rather than building a tree; it reads what the tree
     * reading did ({@code release} a number, the others converted as {@code JsonNode.asText}/{@code asLong} would).
     */
    static Fence readFence(byte[] data) {
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
                    default -> {
                        // not ours: ignored
                    }
                }
            }
            return hasRelease ? new Fence(release, id, oldest, moved) : Fence.NONE;
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
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        try (JsonGenerator g = JSON.getFactory().createGenerator(out)) {
            g.writeStartObject();
            g.writeNumberField("release", release.number());
            g.writeStringField("id", id);
            g.writeNumberField("time", release.time().toEpochMilli());
            g.writeStringField("message", release.message());
            g.writeArrayFieldStart("changes");
            for (Release.Change change : release.changes()) {
                g.writeStartObject();
                g.writeStringField("key", change.key());
                g.writeFieldName("before");
                value(g, change.before());
                g.writeFieldName("after");
                value(g, change.after());
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        } catch (IOException e) {
            throw new IllegalStateException("cannot write release JSON", e);
        }
        return out.toByteArray();
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

    private static void value(JsonGenerator g, Optional<byte[]> value) throws IOException {
        if (value.isEmpty()) {
            g.writeNull();
            return;
        }
        g.writeStartObject();
        String text = utf8(value.get());
        if (text != null) {
            g.writeStringField("text", text);
        } else {
            g.writeStringField("base64", Base64.getEncoder().encodeToString(value.get()));
        }
        g.writeEndObject();
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
