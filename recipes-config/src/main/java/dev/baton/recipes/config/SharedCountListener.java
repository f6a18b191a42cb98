package dev.baton.recipes.config;

/** Told of each new count of a {@link SharedCount}, on the client's event executor, in order. */
@FunctionalInterface
public interface SharedCountListener {
    /**
     * Called with each new count.
     *
     * @param sharedCount the count that changed
     * @param newCount its new value
     */
    void countHasChanged(SharedCount sharedCount, int newCount);
}
