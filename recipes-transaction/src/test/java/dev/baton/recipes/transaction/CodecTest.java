package dev.baton.recipes.transaction;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class CodecTest {
    @Test
    void aTransactionNodeRoundTrips() {
        byte[] data = Codec.definition(List.of("billing", "stock"), Duration.ofMillis(2500), "order 17".getBytes(UTF_8));
        Transaction tx = Codec.transaction("_c_u-tx-0000000003", data);
        assertThat(tx.participants()).containsExactly("billing", "stock");
        assertThat(tx.deadline()).isEqualTo(Duration.ofMillis(2500));
        assertThat(new String(tx.payload(), UTF_8)).isEqualTo("order 17");
        assertThat(tx.sequence()).isEqualTo(3);
    }

    @Test
    void dataThatIsNotATransactionIsRefusedWithItsNodeNamed() {
        assertThatThrownBy(() -> Codec.transaction("tx-1", "hello world".getBytes(UTF_8)))
            .isInstanceOf(TransactionException.class).hasMessageContaining("node tx-1 does not hold a transaction");
        assertThatThrownBy(() -> Codec.transaction("tx-2", new byte[] {'b', 't', 'x', '1', 0}))
            .isInstanceOf(TransactionException.class).hasMessageContaining("node tx-2 does not hold a readable transaction");
    }

    @Test
    void votesAndDecisionsAreTextAPersonCanRead() {
        assertThat(new String(Codec.vote(Vote.ABORT, "out of stock"), UTF_8)).isEqualTo("abort\nout of stock");
        assertThat(Codec.vote(Codec.vote(Vote.COMMIT, null))).isEqualTo(Vote.COMMIT);
        Decision d = Codec.decision(Codec.decision(new Decision(Outcome.COMMIT, "all 2 participants voted commit")));
        assertThat(d).isEqualTo(new Decision(Outcome.COMMIT, "all 2 participants voted commit"));
        assertThat(Codec.decision("garbage".getBytes(UTF_8)).outcome()).as("anything but commit is abort").isEqualTo(Outcome.ABORT);
    }
}
