package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class DurationsTest {

    @Test
    void theShortFormsAndIsoBothRead() {
        assertThat(Durations.parse("500ms")).isEqualTo(Duration.ofMillis(500));
        assertThat(Durations.parse("10s")).isEqualTo(Duration.ofSeconds(10));
        assertThat(Durations.parse("2m")).isEqualTo(Duration.ofMinutes(2));
        assertThat(Durations.parse("1h")).isEqualTo(Duration.ofHours(1));
        assertThat(Durations.parse("PT1.5S")).isEqualTo(Duration.ofMillis(1500));
    }

    @Test
    void aNegativeDurationIsNamedAsNegativeInEitherForm() {
        for (String negative : new String[] {"-1s", "-500ms", "PT-1S"}) {
            assertThatThrownBy(() -> Durations.parse(negative)).as(negative)
                .isInstanceOf(CommandLine.TypeConversionException.class)
                .hasMessage("'" + negative + "' must not be negative");
        }
    }

    @Test
    void aNumberTooLargeForADurationIsAUsageErrorNotACrash() {
        for (String huge : new String[] {"99999999999999999999s", "9223372036854775807h"}) {
            assertThatThrownBy(() -> Durations.parse(huge)).as(huge)
                .isInstanceOf(CommandLine.TypeConversionException.class)
                .hasMessage("'" + huge + "' is too large for a duration");
        }
    }

    @Test
    void somethingElseSaysWhichFormsAreAccepted() {
        assertThatThrownBy(() -> Durations.parse("soon"))
            .isInstanceOf(CommandLine.TypeConversionException.class)
            .hasMessage("'soon' is not a duration: write 500ms, 10s, 2m, 1h or PT10S");
    }
}
