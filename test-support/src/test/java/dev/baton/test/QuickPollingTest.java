package dev.baton.test;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import org.junit.platform.launcher.LauncherSessionListener;

class QuickPollingTest {
    @Test
    void theGapsBetweenLooksDoubleFromTenMillisecondsUpToAHundred() {
        List<Long> gaps = new ArrayList<>();
        Duration gap = Duration.ofMillis(10);
        for (int i = 0; i < 7; i++) {
            gaps.add(gap.toMillis());
            gap = QuickPolling.nextGap(gap);
        }
        assertThat(gaps).containsExactly(10L, 20L, 40L, 80L, 100L, 100L, 100L);
    }

    @Test
    void theTestRunnerFindsTheListenerByItself() {
        // the JUnit Platform loads LauncherSessionListeners this way: without the services entry nothing polls quickly
        assertThat(ServiceLoader.load(LauncherSessionListener.class).stream().map(ServiceLoader.Provider::type))
            .contains(QuickPolling.class);
    }
}
