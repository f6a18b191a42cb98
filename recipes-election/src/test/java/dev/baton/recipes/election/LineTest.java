package dev.baton.recipes.election;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.framework.ConnectionLossException;
import dev.baton.framework.NoAuthException;
import dev.baton.framework.NoNodeException;
import dev.baton.framework.contention.Ticket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.Test;

class LineTest {
    private static final long SESSION = 0x1234;
    private static final Ticket TICKET = new Ticket("/e/_c_x-latch-0000000003", 3, 500, SESSION);

    private static Stat stat(long czxid, long owner) {
        Stat stat = new Stat();
        stat.setCzxid(czxid);
        stat.setEphemeralOwner(owner);
        return stat;
    }

    @Test
    void aTicketIsMineOnlyIfItsNodeExistsUnchangedAndMySessionOwnsIt() {
        assertThat(Line.isMine(TICKET, stat(500, SESSION), SESSION)).isTrue();
        assertThat(Line.isMine(TICKET, null, SESSION)).as("node deleted").isFalse();
        assertThat(Line.isMine(TICKET, stat(777, SESSION), SESSION)).as("another node at the same path").isFalse();
        assertThat(Line.isMine(TICKET, stat(500, 0x9999), SESSION)).as("owned by another session").isFalse();
        assertThat(Line.isMine(TICKET, stat(500, SESSION), 0x5678)).as("the client moved to a new session").isFalse();
        assertThat(Line.isMine(TICKET, stat(500, 0x5678), 0x5678)).as("ticket taken by an earlier session").isFalse();
    }

    @Test
    void theRuleHoldsOnlyFirstInLineAndNeverTakesTheHandOffShortcut() {
        List<String> line = List.of("_c_a-latch-0000000001", "_c_b-latch-0000000002", "_c_c-latch-0000000003");
        assertThat(Line.LISTED_MUTEX.decide(line, 0).holds()).isTrue();
        for (int mine = 1; mine < line.size(); mine++) {
            var decision = Line.LISTED_MUTEX.decide(line, mine);
            assertThat(decision.holds()).isFalse();
            assertThat(decision.watch()).as("waits for the node just before its own").isEqualTo(line.get(mine - 1));
            assertThat(decision.holdsWhenWatchedGoes()).as("lists the line again instead").isFalse();
        }
    }

    @Test
    void participantsFollowTheLineAndOnlyTheFirstLeads() {
        List<String> ordered = List.of("_c_a-latch-0000000001", "_c_b-latch-0000000002", "_c_c-latch-0000000004");
        Map<String, byte[]> data = Map.of(
            "_c_a-latch-0000000001", "a".getBytes(StandardCharsets.UTF_8),
            "_c_c-latch-0000000004", "c".getBytes(StandardCharsets.UTF_8));
        assertThat(Line.participants(ordered, data)).as("b vanished while being read")
            .containsExactly(new Participant("a", true), new Participant("c", false));
        assertThat(Line.participants(List.of(), Map.of())).isEmpty();
    }

    @Test
    void connectionTroubleOrAVanishedNodeWaitsForTheNextJoin() {
        assertThat(Line.curedByNextJoin(new CompletionException(new ConnectionLossException("create", "/e", null)))).isTrue();
        assertThat(Line.curedByNextJoin(new NoNodeException("getData", "/e/_c_a-latch-0000000001", null))).isTrue();
        assertThat(Line.curedByNextJoin(new NoAuthException("create", "/e", null))).isFalse();
    }
}
