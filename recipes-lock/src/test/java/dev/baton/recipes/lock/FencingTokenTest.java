package dev.baton.recipes.lock;

import dev.baton.framework.contention.SharedTicket;
import dev.baton.framework.contention.FencingToken;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The pair token's order (zxid first, then hand-off number) and the shared-ticket limits' checks, without a server. */
class FencingTokenTest {

    @Test
    void aLaterNodeIsAfterEveryHandOffOfAnEarlierOne() {
        FencingToken early = new FencingToken(0x1_0000_0005L, 1_000_000);
        FencingToken nextNode = new FencingToken(0x1_0000_0006L, 0);
        assertThat(nextNode.isAfter(early)).isTrue();
        assertThat(early.isAfter(nextNode)).isFalse();
        assertThat(new FencingToken(7, 2).isAfter(new FencingToken(7, 1))).isTrue();
        assertThat(new FencingToken(7, 1).isAfter(new FencingToken(7, 1))).as("a token is not after itself").isFalse();
    }

    @Test
    void theTextFormSortsAsThePairDoes() {
        List<FencingToken> tokens = new ArrayList<>(List.of(new FencingToken(0x2_0000_0001L, 0), new FencingToken(0x1_0000_0009L, 15),
            new FencingToken(0x1_0000_0009L, 2), new FencingToken(0x1_0000_000aL, 0)));
        List<String> byText = tokens.stream().map(FencingToken::toString).sorted().toList();
        tokens.sort(Comparator.naturalOrder());
        assertThat(byText).isEqualTo(tokens.stream().map(FencingToken::toString).toList());
    }

    @Test
    void badValuesAreRefusedWithWhatWasGiven() {
        assertThatThrownBy(() -> new FencingToken(5, -1)).isInstanceOf(IllegalArgumentException.class)
            .hasMessage("handOff must not be negative, was -1");
        assertThatThrownBy(() -> new SharedTicket(0, Duration.ofMillis(5))).isInstanceOf(IllegalArgumentException.class)
            .hasMessage("handOffLimit must be at least 1, was 0");
        assertThatThrownBy(() -> SharedTicket.defaults().withTenureLimit(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class)
            .hasMessage("tenureLimit must be positive, was PT0S");
        assertThat(SharedTicket.defaults().withHandOffLimit(3)).isEqualTo(new SharedTicket(3, SharedTicket.DEFAULT_TENURE_LIMIT));
    }
}
