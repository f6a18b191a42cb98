package dev.baton.recipes.queue;

import dev.baton.framework.BatonClient;
import java.time.Duration;
import java.util.concurrent.Executor;

/**
 * A queue's configuration, as validated by {@link dev.baton.recipes.queue.QueueBuilder}.
 *
 * @param consumer null for a producer-only queue
 * @param lockPath null for the plain (take, then consume) mode
 * @param maxItems 0 for unbounded
 * @param takeBatch plain mode: items removed per transaction (1 in guaranteed mode)
 * @param executor null for the queue's own threads
 */
record QueueSettings<T>(BatonClient client, QueueConsumer<T> consumer, QueueSerializer<T> serializer, String path,
                               String lockPath, String deadLetterPath, int maxItems, Duration putTimeout, int concurrency,
                               int takeBatch, Executor executor, int maxDeliveryAttempts, Duration retryBackoff,
                               QueueLayout layout, Duration closeTimeout) {
}
