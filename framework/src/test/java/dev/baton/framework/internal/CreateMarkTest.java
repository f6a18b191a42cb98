package dev.baton.framework.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class CreateMarkTest {
    private static final UUID ID = UUID.fromString("5b0c7f2e-9a41-4c3d-8e21-0f6a1d2b3c4d");
    private static final byte[] PAYLOAD = "payload".getBytes(StandardCharsets.UTF_8);

    @Test
    void aMarkedNodeCarriesItsOwnCreatesIdAndNoOther() {
        byte[] stored = CreateMark.mark(ID, PAYLOAD);

        assertThat(stored).hasSize(CreateMark.LENGTH + PAYLOAD.length);
        assertThat(CreateMark.carries(stored, ID)).isTrue();
        assertThat(CreateMark.carries(stored, UUID.randomUUID())).as("another create of the session").isFalse();
        assertThat(CreateMark.carries(CreateMark.mark(ID, new byte[0]), ID)).as("empty data").isTrue();
    }

    @Test
    void readersGetTheWrittenDataBackFromASessionProtectedName() {
        assertThat(CreateMark.userData("/locks/x-72057594037927936-0000000003", CreateMark.mark(ID, PAYLOAD))).isEqualTo(PAYLOAD);
        assertThat(CreateMark.userData("/locks/x-72057594037927936-0000000003", CreateMark.mark(ID, new byte[0]))).isEmpty();
    }

    @Test
    void dataWithoutTheMarkOrUnderAnotherNameReadsAsStored() {
        byte[] zooKeepersRecipe = {0x12, 0x34};
        assertThat(CreateMark.userData("/locks/x-72057594037927936-0000000003", zooKeepersRecipe)).isSameAs(zooKeepersRecipe);
        assertThat(CreateMark.carries(zooKeepersRecipe, ID)).isFalse();

        byte[] marked = CreateMark.mark(ID, PAYLOAD);
        assertThat(CreateMark.userData("/config/_c_" + ID + "-item", marked)).as("not an x- name").isSameAs(marked);

        byte[] almost = CreateMark.mark(ID, PAYLOAD);
        almost[7] = 0x02; // the magic's last byte differs
        assertThat(CreateMark.userData("/locks/x-1-0000000001", almost)).isSameAs(almost);
        assertThat(CreateMark.carries(almost, ID)).isFalse();

        byte[] shortData = {0x00, 'b', 'a', 't', 'o', 'n', 'x', 0x01};
        assertThat(CreateMark.userData("/locks/x-1-0000000001", shortData)).as("shorter than a mark").isSameAs(shortData);
        assertThat(CreateMark.userData("/locks/x-1-0000000001", new byte[0])).isEmpty();
    }
}
