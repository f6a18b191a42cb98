package dev.baton.recipes.config;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
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
        assertThat(ReleaseCodec.readFence(fence)).isEqualTo(new ReleaseCodec.Fence(7, "abc-1", 3, 5));
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
}
