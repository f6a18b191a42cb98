package dev.baton.test.history;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class QueueHistoryTest {

    @Test
    void exactlyOnceAcceptsOneCompletionPerItemAndFlagsLossAndDuplicates() {
        QueueHistory h = new QueueHistory();
        h.put("p", "a");
        h.put("p", "b");
        h.started("c1", "a", 1);
        h.completed("c1", "a", 1);
        assertThat(h.checkExactlyOnce().problems()).singleElement().asString().contains("lost: b");
        h.started("c2", "b", 2);
        h.completed("c2", "b", 2);
        assertThat(h.checkExactlyOnce().ok()).isTrue();
        h.started("c3", "b", 3);
        h.completed("c3", "b", 3);
        assertThat(h.checkExactlyOnce().problems()).singleElement().asString().contains("duplicate: b");
    }

    @Test
    void exactlyOnceExcusesARerunWhoseFirstSessionWasEndedMidItem() {
        QueueHistory h = new QueueHistory();
        h.put("p", "a");
        h.started("c1", "a", 1);
        h.sessionEnded(1);
        h.completed("c1", "a", 1);
        h.started("c2", "a", 2);
        h.completed("c2", "a", 2);
        assertThat(h.checkExactlyOnce().ok()).isTrue();
    }

    @Test
    void atMostOnceAdmitsOnlyItemsHeldByADeadConsumerOrDeadLettered() {
        QueueHistory h = new QueueHistory();
        h.put("p", "a");
        h.put("p", "b");
        h.put("p", "c");
        h.put("p", "d");
        h.started("c1", "a", 1);
        h.consumerDied("c1");
        h.deadLettered("b");
        h.started("c2", "c", 2);
        h.completed("c2", "c", 2);
        assertThat(h.checkAtMostOnce().problems()).singleElement().asString().contains("lost: d");
        h.started("c2", "c", 2);
        h.completed("c2", "c", 2);
        assertThat(h.checkAtMostOnce().problems()).anyMatch(p -> p.contains("duplicate: c"));
    }

    @Test
    void fifoPerProducerFlagsAnItemCompletedBeforeAnEarlierOne() {
        QueueHistory h = new QueueHistory();
        h.put("p1", "a");
        h.put("p2", "x");
        h.put("p1", "b");
        h.completed("c", "x", 1);
        h.completed("c", "a", 1);
        h.completed("c", "b", 1);
        assertThat(h.checkFifoPerProducer().ok()).isTrue();
        QueueHistory bad = new QueueHistory();
        bad.put("p1", "a");
        bad.put("p1", "b");
        bad.completed("c", "b", 1);
        bad.completed("c", "a", 1);
        assertThat(bad.checkFifoPerProducer().problems()).singleElement().asString().contains("out of order");
    }
}
