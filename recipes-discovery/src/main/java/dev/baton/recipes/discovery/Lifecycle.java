package dev.baton.recipes.discovery;

import java.util.Objects;

/**
 * The life of a discovery object (the discovery, a provider, a cache): LATENT until started, then
 * STARTED (through STARTING where starting waits for a first load), and CLOSED for good. It is
 * guarded by its owner's monitor, the one that guards the owner's other state, so that a check of
 * "closed" and the work it admits stay one step for the owner.
 */
final class Lifecycle {
    /** Where the owner is in its life. */
    enum State { LATENT, STARTING, STARTED, CLOSED }

    private final Object owner;
    /** How messages name the owner ("provider of 'db'", "discovery of /services"). */
    private final String subject;
    private volatile State state = State.LATENT;

    Lifecycle(Object owner, String subject) {
        this.owner = Objects.requireNonNull(owner, "owner");
        this.subject = Objects.requireNonNull(subject, "subject");
    }

    /**
     * LATENT to {@code next} (STARTING or STARTED).
     *
     * @throws IllegalStateException if already started, or closed
     */
    void start(State next) {
        synchronized (owner) {
            switch (state) {
                case LATENT -> state = next;
                case STARTING, STARTED -> throw new IllegalStateException(subject + " is already started");
                case CLOSED -> throw new IllegalStateException(subject + " is closed");
            }
        }
    }

    /** STARTING to STARTED, unless closed meanwhile. */
    void started() {
        synchronized (owner) {
            if (state == State.STARTING) {
                state = State.STARTED;
            }
        }
    }

    /** Moves to CLOSED; false if it already was, so that the owner's close() does its work once. */
    boolean close() {
        synchronized (owner) {
            if (state == State.CLOSED) {
                return false;
            }
            state = State.CLOSED;
            return true;
        }
    }

    State state() {
        return state;
    }

    boolean isClosed() {
        return state == State.CLOSED;
    }

    /** @throws IllegalStateException unless STARTED, saying whether it is closed or not started yet */
    void requireStarted() {
        State now = state;
        if (now != State.STARTED) {
            throw new IllegalStateException(subject + " is " + (now == State.CLOSED ? "closed" : "not started (call start() first)"));
        }
    }

    /**
     * For answers that stay meaningful after close (a cache's last-seen instances), not before the
     * first start, when they would only look like "none".
     *
     * @throws IllegalStateException if LATENT
     */
    void requireStartedOnce() {
        if (state == State.LATENT) {
            throw new IllegalStateException(subject + " is not started (call start() first)");
        }
    }

    /** @throws IllegalStateException if CLOSED */
    void requireOpen() {
        if (state == State.CLOSED) {
            throw new IllegalStateException(subject + " is closed");
        }
    }
}
