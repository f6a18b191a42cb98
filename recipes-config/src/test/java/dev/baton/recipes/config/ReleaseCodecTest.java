package dev.baton.recipes.config;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The fence's and the history entry's bytes: stores written by earlier versions, and other
 * writers of the same store, read them, so a faster encoder must write exactly what the first
 * one did (these strings are that encoder's output).
 */
class ReleaseCodecTest {
    private static final Instant TIME = Instant.ofEpochMilli(1700000000123L);

    @Test
    void anEntryIsWrittenByteForByteAsBeforeAndReadsBack() {
        Release release = new Release(7, TIME, "move \"orders\" to db2 \u00fc", List.of(
            new Release.Change("db/url", Optional.of("jdbc:x".getBytes(UTF_8)), Optional.of("jdbc:\u00fc\n\"y\"".getBytes(UTF_8))),
            new Release.Change("bin", Optional.empty(), Optional.of(new byte[] {(byte) 0xff, 0, 1})),
            new Release.Change("gone", Optional.of(new byte[0]), Optional.empty())));

        byte[] entry = ReleaseCodec.entry(release, "abc-1");

        assertThat(new String(entry, UTF_8)).isEqualTo("{\"release\":7,\"id\":\"abc-1\",\"time\":1700000000123,"
            + "\"message\":\"move \\\"orders\\\" to db2 \u00fc\",\"changes\":["
            + "{\"key\":\"db/url\",\"before\":{\"text\":\"jdbc:x\"},\"after\":{\"text\":\"jdbc:\u00fc\\n\\\"y\\\"\"}},"
            + "{\"key\":\"bin\",\"before\":null,\"after\":{\"base64\":\"/wAB\"}},"
            + "{\"key\":\"gone\",\"before\":{\"text\":\"\"},\"after\":null}]}");
        Release read = ReleaseCodec.readEntry(entry).orElseThrow();
        assertThat(read.number()).isEqualTo(7);
        assertThat(read.message()).isEqualTo(release.message());
        assertThat(read.changes()).hasSize(3);
        assertThat(read.changes().get(0).after()).hasValueSatisfying(v -> assertThat(v).isEqualTo("jdbc:\u00fc\n\"y\"".getBytes(UTF_8)));
        assertThat(read.changes().get(1).after()).hasValueSatisfying(v -> assertThat(v).containsExactly(0xff, 0, 1));
        assertThat(read.changes().get(2).after()).isEmpty();
    }

    @Test
    void theFenceIsWrittenByteForByteAsBeforeAndReadsBack() {
        byte[] fence = ReleaseCodec.fence(7, "abc-1", TIME, 3, 5);

        assertThat(new String(fence, UTF_8)).isEqualTo("{\"release\":7,\"id\":\"abc-1\",\"time\":1700000000123,\"oldest\":3,\"moved\":5}");
        assertThat(ReleaseCodec.readFence(fence)).isEqualTo(new ReleaseCodec.Fence(7, "abc-1", 3, 5, TIME.toEpochMilli()));
    }

    @Test
    void aFenceReadsAsTheTreeReaderReadItFieldsInAnyOrderForeignOnesIgnored() {
        assertThat(fence("{\"moved\":5,\"x\":{\"release\":9},\"oldest\":3,\"tags\":[1,2],\"id\":\"w-2\",\"release\":8}"))
            .as("nested values are skipped, not read as the fence's").isEqualTo(new ReleaseCodec.Fence(8, "w-2", 3, 5));
        assertThat(fence("{\"release\":4}")).as("a fence of the first layout").isEqualTo(new ReleaseCodec.Fence(4, "", 0, 0));
        assertThat(fence("{\"release\":4,\"oldest\":\"2\",\"id\":7}")).isEqualTo(new ReleaseCodec.Fence(4, "7", 2, 0));
        assertThat(fence("{\"release\":4} trailing")).isEqualTo(new ReleaseCodec.Fence(4, "", 0, 0));
        for (String notOurs : List.of("", "{}", "[1]", "7", "{\"release\":\"4\"}", "{\"release\":null}",
            "{\"release\":99999999999999999999999}", "{\"release\":4,", "not json")) {
            assertThat(fence(notOurs)).as("'%s' is not a fence of ours", notOurs).isEqualTo(ReleaseCodec.Fence.NONE);
        }
    }

    private static ReleaseCodec.Fence fence(String json) {
        return ReleaseCodec.readFence(json.getBytes(UTF_8));
    }

    @Test
    void historyEntryNamesAreZeroPaddedToTenDigitsAsTheFormatWrote() {
        for (long n : new long[] {0, 7, 42, 999_999_999L, 1_000_000_000L, 12_345_678_901L, Long.MAX_VALUE}) {
            assertThat(Keys.historyName(n)).isEqualTo(String.format("release-%010d", n));
            assertThat(Keys.historyNumber(Keys.historyName(n))).isEqualTo(n);
        }
    }

    // ---- the hand-written encoders and the fence scanner against Jackson ----

    /** Characters that JSON escapes differently, multi-byte ones, a pair, and plain text. */
    private static final String ALPHABET = "ab/Z09 -_:.{}[],\"\\\u0000\u0001\b\t\n\u000b\f\r\u001f\u007f\u0080\u00fc\u2028\u4e2d\ud83d\ude00";

    private static String randomText(Random r, int max) {
        StringBuilder s = new StringBuilder();
        int n = r.nextInt(max + 1);
        while (s.length() < n) {
            int at = r.nextInt(ALPHABET.length());
            char c = ALPHABET.charAt(at);
            if (Character.isHighSurrogate(c)) {
                s.append(c).append(ALPHABET.charAt(at + 1)); // keep the pair whole
            } else if (!Character.isLowSurrogate(c)) {
                s.append(c);
            }
        }
        return s.toString();
    }

    private static Optional<byte[]> randomValue(Random r) {
        return switch (r.nextInt(4)) {
            case 0 -> Optional.empty();
            case 1 -> {
                byte[] b = new byte[r.nextInt(6)];
                r.nextBytes(b);
                yield Optional.of(b); // mostly not UTF-8: base64
            }
            default -> Optional.of(randomText(r, 12).getBytes(UTF_8));
        };
    }

    // The reference: the encoders as they were written with Jackson's streaming generator (release 0.1 wrote these bytes).

    private static final JsonFactory JACKSON = new JsonFactory();

    private static String jacksonFence(long number, String id, Instant time, long oldest, long moved) {
        return jackson(g -> {
            g.writeStartObject();
            g.writeNumberField("release", number);
            g.writeStringField("id", id);
            g.writeNumberField("time", time.toEpochMilli());
            g.writeNumberField("oldest", oldest);
            g.writeNumberField("moved", moved);
            g.writeEndObject();
        });
    }

    private static String jacksonEntry(Release release, String id) {
        return jackson(g -> {
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
                jacksonValue(g, change.before());
                g.writeFieldName("after");
                jacksonValue(g, change.after());
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        });
    }

    private static void jacksonValue(JsonGenerator g, Optional<byte[]> value) throws IOException {
        if (value.isEmpty()) {
            g.writeNull();
            return;
        }
        g.writeStartObject();
        try {
            String text = UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT)
                .decode(ByteBuffer.wrap(value.get())).toString();
            g.writeStringField("text", text);
        } catch (CharacterCodingException e) {
            g.writeStringField("base64", Base64.getEncoder().encodeToString(value.get()));
        }
        g.writeEndObject();
    }

    private interface Writing {
        void write(JsonGenerator g) throws IOException;
    }

    private static String jackson(Writing writing) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JsonGenerator g = JACKSON.createGenerator(out)) {
            writing.write(g);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString(UTF_8);
    }

    @Test
    void theHandWrittenEncodersWriteWhatJacksonWroteForAnyText() {
        Random r = new Random(20261127);
        for (int round = 0; round < 3000; round++) {
            List<Release.Change> changes = new ArrayList<>();
            for (int c = r.nextInt(4); c > 0; c--) {
                changes.add(new Release.Change(randomText(r, 8), randomValue(r), randomValue(r)));
            }
            Release release = new Release(r.nextInt(1000), Instant.ofEpochMilli(r.nextLong() >>> 20), randomText(r, 16), changes);
            String id = round % 3 == 0 ? randomText(r, 10) : "w-" + round;
            assertThat(new String(ReleaseCodec.entry(release, id), UTF_8)).as("entry, round %d", round).isEqualTo(jacksonEntry(release, id));
            long oldest = r.nextInt(50);
            assertThat(new String(ReleaseCodec.fence(release.number(), id, release.time(), oldest, oldest + 1), UTF_8))
                .as("fence, round %d", round).isEqualTo(jacksonFence(release.number(), id, release.time(), oldest, oldest + 1));
        }
    }

    @Test
    void aLongTextIsWrittenAsJacksonWroteIt() {
        // Jackson writes a long string in segments, by another path than a short one
        Random r = new Random(7);
        StringBuilder text = new StringBuilder();
        while (text.length() < 3000) {
            text.append(randomText(r, 40)).append("\ud83d\ude00\u2028\"");
        }
        Release release = new Release(3, TIME, text.toString(), List.of(new Release.Change("k", Optional.of(text.toString().getBytes(UTF_8)),
            Optional.empty())));
        assertThat(new String(ReleaseCodec.entry(release, "w-1"), UTF_8)).isEqualTo(jacksonEntry(release, "w-1"));
    }

    @Test
    void aLoneSurrogateIsEscapedAsJacksonEscapedIt() {
        Release release = new Release(1, TIME, "half a pair \ud83d", List.of(
            new Release.Change("k\ude00", Optional.empty(), Optional.of("x".getBytes(UTF_8)))));
        assertThat(new String(ReleaseCodec.entry(release, "w-1"), UTF_8)).isEqualTo(jacksonEntry(release, "w-1"))
            .contains("half a pair \\uD83D\"", "\"k\\uDE00\"");
        assertThat(new String(ReleaseCodec.fence(1, "\ud83d", TIME, 0, 0), UTF_8)).isEqualTo(jacksonFence(1, "\ud83d", TIME, 0, 0));
    }

    @Test
    void everyFenceAWriterWritesIsReadByTheScannerNotJackson() {
        for (long n : new long[] {0, 1, 7, 999_999_999_999_999_999L}) {
            byte[] fence = ReleaseCodec.fence(n, "0f8c2a55-6d7e-4e43-9a1b-2a3b4c5d6e7f-" + n, TIME, n / 2, 1);
            assertThat(ReleaseCodec.scanFence(fence)).as("release %d", n).isEqualTo(new ReleaseCodec.Fence(n,
                "0f8c2a55-6d7e-4e43-9a1b-2a3b4c5d6e7f-" + n, n / 2, 1, TIME.toEpochMilli()));
        }
        assertThat(ReleaseCodec.scanFence("{\"release\":4}".getBytes(UTF_8))).as("the first layout's fence")
            .isEqualTo(new ReleaseCodec.Fence(4, "", 0, 0));
    }

    @Test
    void anyFenceReadsAsJacksonReadsIt() {
        String[] names = {"release", "id", "time", "oldest", "moved", "x", "rel\\u0065ase"};
        String[] values = {"0", "7", "007", "-3", "-0", "123456789012345678", "1234567890123456789", "9999999999999999999",
            "99999999999999999999999", "4.5", "1e3", "\"w-1\"", "\"\"", "\"a\\\"b\"", "\"\u00fc\"", "\"tab\there\"",
            "\"nul\u0000\"", "\"del\u007f\"", "null", "true", "{\"release\":9}", "[1,2]", "\"12\""};
        Random r = new Random(42);
        int scanned = 0;
        String[] plainNumbers = {"0", "7", "123456789012345678"};
        String[] plainTexts = {"\"w-1\"", "\"\"", "\"12\""};
        for (int round = 0; round < 20000; round++) {
            // every other fence of the plain shape, with the release first (the scanner's case), the others anything
            boolean plain = round % 2 == 0;
            StringBuilder s = new StringBuilder("{");
            for (int f = r.nextInt(6); f >= 0; f--) {
                String name = plain && s.length() == 1 ? "release" : names[r.nextInt(plain ? 6 : names.length)];
                String[] pick = !plain ? values : name.equals("id") ? plainTexts
                    : List.of("release", "oldest", "moved", "time").contains(name) || r.nextBoolean() ? plainNumbers : plainTexts;
                s.append('"').append(name).append("\":").append(pick[r.nextInt(pick.length)]);
                s.append(f > 0 ? "," : "");
            }
            s.append('}');
            String json = s.toString();
            switch (plain ? 11 : r.nextInt(12)) {
                case 0 -> json = json.replace(":", " : ");
                case 1 -> json = json + " x";
                case 2 -> json = json.substring(0, r.nextInt(json.length()));
                case 3 -> json = "[" + json + "]";
                default -> {
                    // as built
                }
            }
            byte[] data = json.getBytes(UTF_8);
            if (ReleaseCodec.scanFence(data) != null) {
                scanned++;
            }
            assertThat(ReleaseCodec.readFence(data)).as("%s", json).isEqualTo(ReleaseCodec.readFenceByJackson(data));
        }
        assertThat(scanned).as("fences the scanner read itself").isGreaterThanOrEqualTo(10000);
        // Jackson refuses a field name over its limit (50,000 bytes by default): so must the reading of a fence
        for (int length : new int[] {4000, 50_001}) {
            byte[] data = ("{\"release\":5,\"" + "a".repeat(length) + "\":0}").getBytes(UTF_8);
            assertThat(ReleaseCodec.readFence(data)).as("a name of %d bytes", length).isEqualTo(ReleaseCodec.readFenceByJackson(data));
        }
    }
}
