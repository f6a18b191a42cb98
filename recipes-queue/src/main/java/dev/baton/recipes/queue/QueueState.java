package dev.baton.recipes.queue;

/** The life of a {@link DistributedQueue}: built, started, closed (for good). */
public enum QueueState {
    LATENT,
    STARTED,
    CLOSED
}
