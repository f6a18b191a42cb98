package dev.baton.recipes.queue;

import java.util.List;
import java.util.Objects;

/**
 * What the four queue forms ({@link DistributedQueue}, {@link DistributedPriorityQueue},
 * {@link DistributedDelayQueue}, {@link DistributedIdQueue}) share: the engine they face, and the
 * {@link QueueBase} calls that only pass through to it. Each form adds its own puts, which differ
 * only in the node-name part they hand the engine.
 */
abstract class QueueFront<T> implements QueueBase<T> {
    final QueueEngine<T> engine;

    QueueFront(QueueEngine<T> engine) {
        this.engine = engine;
    }

    /** {@code item} as the one-item batch the engine puts; null fails here, before anything else is checked. */
    static <T> List<T> one(T item) {
        return List.of(Objects.requireNonNull(item, "item: a queue item cannot be null"));
    }

    @Override
    public void start() throws InterruptedException {
        engine.start();
    }

    @Override
    public QueueState state() {
        return engine.state();
    }

    @Override
    public long count() throws InterruptedException {
        return engine.count();
    }

    @Override
    public List<DeadLetter> deadLetters() throws InterruptedException {
        return engine.deadLetters(1_000);
    }

    @Override
    public void close() {
        engine.close();
    }
}
