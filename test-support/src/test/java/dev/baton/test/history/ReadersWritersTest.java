package dev.baton.test.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.test.history.ReadersWriters.Mode;
import org.junit.jupiter.api.Test;

class ReadersWritersTest {
    @Test
    void acceptsOverlappingReadersBetweenWritersInTokenOrder() {
        ReadersWriters history = new ReadersWriters();
        var w1 = history.entered("w1", Mode.WRITE, 10);
        history.exiting(w1);
        var r1 = history.entered("r1", Mode.READ, 12);
        var r2 = history.entered("r2", Mode.READ, 11);
        history.exiting(r1);
        history.exiting(r2);
        var w2 = history.entered("w2", Mode.WRITE, 13);
        history.exiting(w2);

        assertThat(history.check().violations()).isEmpty();
        assertThat(history.mostConcurrentReaders()).isEqualTo(2);
        assertThat(history.entries(Mode.WRITE)).isEqualTo(2);
    }

    @Test
    void reportsAReaderInsideWithAWriter() {
        ReadersWriters history = new ReadersWriters();
        history.entered("w", Mode.WRITE, 10);
        history.entered("r", Mode.READ, 11);

        Verdict verdict = history.check();

        assertThat(verdict.violations()).singleElement().asString().contains("r ENTERED READ").contains("while w held a WRITE hold");
        assertThatThrownBy(verdict::assertOk).isInstanceOf(AssertionError.class);
    }

    @Test
    void reportsAWriterOvertakenByALaterReader() {
        ReadersWriters history = new ReadersWriters();
        var r = history.entered("late-reader", Mode.READ, 20);
        history.exiting(r);
        history.entered("writer", Mode.WRITE, 15);

        assertThat(history.checkTurns().violations()).singleElement().asString()
            .contains("writer ENTERED WRITE").contains("waited longer than its turn");
    }

    @Test
    void reportsAReaderThatJumpedAnEarlierWriter() {
        ReadersWriters history = new ReadersWriters();
        var r = history.entered("reader", Mode.READ, 20);
        history.exiting(r);
        var w = history.entered("writer", Mode.WRITE, 25);
        history.exiting(w);
        history.entered("early-reader", Mode.READ, 18);

        assertThat(history.checkTurns().violations()).singleElement().asString().contains("jumped the line");
    }

    @Test
    void acceptsADowngradeButNotATokenSharedByTwoActors() {
        ReadersWriters history = new ReadersWriters();
        var w = history.entered("a", Mode.WRITE, 10);
        var downgraded = history.entered("a", Mode.READ, 10);
        history.exiting(w);
        var other = history.entered("b", Mode.READ, 12);
        history.exiting(downgraded);
        history.exiting(other);
        assertThat(history.check().violations()).isEmpty();

        history.entered("c", Mode.WRITE, 12);
        assertThat(history.checkTurns().violations()).singleElement().asString().contains("share a token");
    }
}
