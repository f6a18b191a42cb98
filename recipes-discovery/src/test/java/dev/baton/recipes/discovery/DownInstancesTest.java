package dev.baton.recipes.discovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The down-instance policy as a function of time (nanosecond readings given by hand). */
class DownInstancesTest {
    private static final long S = 1_000_000_000L;
    /** nanoTime readings can be negative; start there to catch careless comparisons. */
    private static final long T0 = -5 * S;

    private final DownInstances down = new DownInstances(new DownInstancePolicy(3, Duration.ofSeconds(10), Duration.ofSeconds(30)));

    @Test
    void thresholdErrorsWithinTheWindowTakeAnInstanceOut() {
        assertThat(down.noteError("a", T0)).isFalse();
        assertThat(down.noteError("a", T0 + 4 * S)).isFalse();
        assertThat(down.isDown("a", T0 + 5 * S)).isFalse();
        assertThat(down.noteError("a", T0 + 9 * S)).isTrue();
        assertThat(down.isDown("a", T0 + 9 * S)).isTrue();
        assertThat(down.down(T0 + 10 * S)).containsExactly("a");
        assertThat(down.isDown("b", T0 + 10 * S)).isFalse();
    }

    @Test
    void errorsFurtherApartThanTheWindowDoNotAddUp() {
        down.noteError("a", T0);
        down.noteError("a", T0 + 6 * S);
        assertThat(down.noteError("a", T0 + 11 * S)).as("first error is older than the window: count restarted").isFalse();
        assertThat(down.noteError("a", T0 + 12 * S)).isFalse();
        assertThat(down.noteError("a", T0 + 13 * S)).isTrue();
    }

    @Test
    void anInstanceComesBackAfterTheDownTimeWithACleanSlate() {
        takeOut("a", T0);
        assertThat(down.nextReturn(T0 + S)).isEqualTo(T0 + 2 * S + 30 * S);
        assertThat(down.isDown("a", T0 + 31 * S)).isTrue();
        assertThat(down.isDown("a", T0 + 32 * S)).isFalse();
        assertThat(down.nextReturn(T0 + 32 * S)).isEqualTo(DownInstances.NEVER);
        assertThat(down.noteError("a", T0 + 33 * S)).as("one error after coming back is not enough").isFalse();
    }

    @Test
    void anErrorWhileOutExtendsTheDownTime() {
        takeOut("a", T0);
        assertThat(down.noteError("a", T0 + 20 * S)).isTrue();
        assertThat(down.isDown("a", T0 + 45 * S)).isTrue();
        assertThat(down.isDown("a", T0 + 50 * S)).isFalse();
    }

    @Test
    void nextReturnIsTheEarliestOfSeveral() {
        takeOut("late", T0 + 10 * S);
        takeOut("early", T0);
        assertThat(down.nextReturn(T0 + 12 * S)).isEqualTo(T0 + 32 * S);
        assertThat(down.down(T0 + 33 * S)).containsExactly("late");
    }

    @Test
    void neverPolicyNeverTakesAnythingOut() {
        DownInstances never = new DownInstances(DownInstancePolicy.never());
        for (int i = 0; i < 1000; i++) {
            assertThat(never.noteError("a", T0 + i)).isFalse();
        }
    }

    @Test
    void policyRejectsNonsense() {
        assertThatThrownBy(() -> new DownInstancePolicy(0, Duration.ofSeconds(1), Duration.ofSeconds(1)))
            .hasMessageContaining("errorThreshold must be 1 or more, was 0");
        assertThatThrownBy(() -> new DownInstancePolicy(1, Duration.ZERO, Duration.ofSeconds(1)))
            .hasMessageContaining("errorWindow must be positive, was PT0S");
        assertThatThrownBy(() -> new DownInstancePolicy(1, Duration.ofSeconds(1), Duration.ofSeconds(-1)))
            .hasMessageContaining("downTime must be positive");
    }

    private void takeOut(String id, long at) {
        down.noteError(id, at);
        down.noteError(id, at + S);
        assertThat(down.noteError(id, at + 2 * S)).isTrue();
    }
}
