package dev.baton.test.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class WatchHistoryTest {
    @Test
    void acceptsWatchersThatSkipValuesButEndOnTheFinalOne() {
        WatchHistory history = new WatchHistory();
        history.seen("a", 1);
        history.seen("b", 2);
        history.seen("a", 3);
        history.seen("a", 3);
        history.seen("b", 3);

        Verdict verdict = history.check(List.of("a", "b"), 3);

        assertThat(verdict.isOk()).as(verdict.violations().toString()).isTrue();
        assertThat(verdict.eventsChecked()).isEqualTo(5);
        assertThat(history.allAt(List.of("a", "b"), 3)).isTrue();
    }

    @Test
    void reportsAWatcherThatWentBack() {
        WatchHistory history = new WatchHistory();
        history.seen("a", 4);
        history.seen("a", 2);
        history.seen("a", 5);

        Verdict verdict = history.check(List.of("a"), 5);

        assertThat(verdict.violations()).singleElement().asString().contains("a went back from 4 (#0) to 2");
    }

    @Test
    void reportsAWatcherThatEndedStaleOrSawNothing() {
        WatchHistory history = new WatchHistory();
        history.seen("canary", 2);
        history.seen("good", 7);

        Verdict verdict = history.check(List.of("canary", "good", "silent"), 7);

        assertThat(verdict.violations()).hasSize(2);
        assertThat(verdict.violations().get(0)).contains("canary ended stale on 2").contains("the final value is 7");
        assertThat(verdict.violations().get(1)).isEqualTo("silent was told nothing; the final value is 7");
        assertThat(history.last("silent")).isEmpty();
        assertThatThrownBy(verdict::assertOk).isInstanceOf(AssertionError.class)
            .hasMessageContaining("every watcher ends on the final value and never goes back violated 2 time(s)");
    }

    @Test
    void reportsAValuePastTheFinalOne() {
        WatchHistory history = new WatchHistory();
        history.seen("a", 9);

        assertThat(history.check(List.of("a"), 8).violations()).anyMatch(v -> v.contains("a was told 9, past the final value 8"));
    }
}
