package dev.baton.recipes.queue;

/** The life of a {@link DistributedQueue}: built, started, closed (for good). */
public enum QueueState {
    /** Built, not started. */
    LATENT,
    /** Started: puts work and, with a consumer, items are consumed. */
    STARTED,
    /** Closed for good. */
    CLOSED
}
