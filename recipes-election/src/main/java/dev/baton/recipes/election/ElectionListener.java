package dev.baton.recipes.election;

/**
 * Told what an {@link ElectionObserver} sees, in order, one call at a time, on the observer's
 * executor. A listener that throws is logged; the others still hear.
 */
@FunctionalInterface
public interface ElectionListener {
    void electionChanged(ElectionEvent event);
}
