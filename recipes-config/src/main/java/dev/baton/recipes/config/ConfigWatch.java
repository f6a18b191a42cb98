package dev.baton.recipes.config;

/** A registered {@link ConfigListener}; closing it stops the updates (one already under way may still arrive). */
public interface ConfigWatch extends AutoCloseable {
    /**
     * What is watched.
     *
     * @return the watched key, or prefix ("" for every key)
     */
    String scope();

    /** Stops the updates; one already under way may still arrive. */
    @Override
    void close();
}
