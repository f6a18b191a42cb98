package dev.baton.test;

import java.time.Duration;
import org.awaitility.Awaitility;
import org.awaitility.pollinterval.IterativePollInterval;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * Makes Awaitility look at a condition at once and then often, in a test JVM started with the
 * system property {@code baton.test.quickPolling=true}, as Baton's own build starts every one
 * (root pom). The JUnit Platform loads this listener by itself, through {@code META-INF/services}:
 * without the property (in your own builds, unless you set it) it changes nothing.
 *
 * <p>Awaitility's own defaults wait 100 ms before the first look and then look every 100 ms, so
 * each {@code await()} cost at least 100 ms even when its condition already held, and on average
 * 50 ms more than the condition took: over the suite's thousands of waits that was minutes of a
 * CI run spent waiting for nothing. Here the first look is immediate and the gaps grow 10, 20, 40,
 * 80 ms and then stay at 100 ms: a wait that lasts seconds polls no more often than before, and a
 * wait that ends early ends when its condition holds.
 *
 * <p>What a test proves does not change: a wait still ends only when its condition holds, and
 * fails when its deadline ({@code atMost}) passes first; a {@code during} window is still watched
 * whole; a test that sets its own {@code pollInterval} or {@code pollDelay} keeps it.
 * {@code mvn verify -Dbaton.test.quickPolling=false} runs the suite with Awaitility's defaults
 * (docs/testing.md).
 */
public final class QuickPolling implements LauncherSessionListener {
    /** Set to {@code true} to look at once and then often; anything else keeps Awaitility's defaults. */
    static final String PROPERTY = "baton.test.quickPolling";
    private static final Duration FIRST_GAP = Duration.ofMillis(10);
    private static final Duration LONGEST_GAP = Duration.ofMillis(100);

    /** Used by the JUnit Platform's service loader. */
    public QuickPolling() {
    }

    @Override
    public void launcherSessionOpened(LauncherSession session) {
        if (!Boolean.getBoolean(PROPERTY)) {
            return;
        }
        Awaitility.setDefaultPollDelay(Duration.ZERO);
        Awaitility.setDefaultPollInterval(new IterativePollInterval(QuickPolling::nextGap, FIRST_GAP));
    }

    /** Doubles the gap up to {@link #LONGEST_GAP}. */
    static Duration nextGap(Duration previous) {
        Duration doubled = previous.multipliedBy(2);
        return doubled.compareTo(LONGEST_GAP) < 0 ? doubled : LONGEST_GAP;
    }
}
