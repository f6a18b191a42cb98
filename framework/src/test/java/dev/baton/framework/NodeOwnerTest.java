package dev.baton.framework;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.Test;

/** {@link NodeOwner} without a server: any session id is an owner, whatever its top byte. */
class NodeOwnerTest {
    private static Stat ownedBy(long owner) {
        Stat stat = new Stat();
        stat.setEphemeralOwner(owner);
        return stat;
    }

    @Test
    void aSessionOfAServerWithAHighIdIsStillAnOwner() {
        // a session id starts with its server's id: 0x80.. for server 128, 0xff.. for server 255
        for (long session : new long[] {0x0100_0000_0000_0001L, 0x8000_0123_4567_0001L, 0xff00_0123_4567_0001L}) {
            assertThat(NodeOwner.isEphemeral(ownedBy(session))).as("0x%s", Long.toHexString(session)).isTrue();
            assertThat(NodeOwner.isOwnedBy(ownedBy(session), session)).as("0x%s", Long.toHexString(session)).isTrue();
        }
        assertThat(NodeOwner.isEphemeral(ownedBy(0))).isFalse();
        assertThat(NodeOwner.isOwnedBy(ownedBy(0), 0)).as("no session owns a persistent node").isFalse();
    }
}
