package dev.baton.recipes.config;

/** Told of each new count of a {@link SharedCount}, on the client's event executor, in order. */
@FunctionalInterface
public interface SharedCountListener {
    void countHasChanged(SharedCount sharedCount, int newCount);
}
