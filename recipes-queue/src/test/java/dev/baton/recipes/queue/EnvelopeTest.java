package dev.baton.recipes.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class EnvelopeTest {

    @Test
    void oneItemRoundTripsInCuratorsFormat() {
        byte[] item = "hello".getBytes(StandardCharsets.UTF_8);
        byte[] wrapped = Envelope.wrap(item);
        assertThat(wrapped).hasSize(item.length + Envelope.OVERHEAD);
        assertThat(ByteBuffer.wrap(wrapped).getInt()).isEqualTo(0x00010001);
        assertThat(wrapped[4]).isEqualTo((byte) 1);
        assertThat(wrapped[wrapped.length - 1]).isEqualTo((byte) 2);
        assertThat(Envelope.unwrap(wrapped)).singleElement().isEqualTo(item);
        assertThat(Envelope.unwrap(Envelope.wrap(new byte[0]))).singleElement().isEqualTo(new byte[0]);
    }

    @Test
    void severalItemsInOneNodeAreAllRead() {
        ByteBuffer b = ByteBuffer.allocate(4 + 2 * (1 + 4 + 1) + 1);
        b.putInt(0x00010001).put((byte) 1).putInt(1).put((byte) 'a').put((byte) 1).putInt(1).put((byte) 'b').put((byte) 2);
        assertThat(Envelope.unwrap(b.array())).extracting(bytes -> new String(bytes, StandardCharsets.UTF_8)).containsExactly("a", "b");
    }

    @Test
    void malformedDataIsRejectedWithTheReason() {
        assertThatThrownBy(() -> Envelope.unwrap("raw".getBytes(StandardCharsets.UTF_8))).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("ends early");
        assertThatThrownBy(() -> Envelope.unwrap(ByteBuffer.allocate(5).putInt(7).put((byte) 2).array()))
            .hasMessageContaining("version");
        assertThatThrownBy(() -> Envelope.unwrap(ByteBuffer.allocate(9).putInt(0x00010001).put((byte) 1).putInt(100).array()))
            .hasMessageContaining("item size 100");
    }
}
