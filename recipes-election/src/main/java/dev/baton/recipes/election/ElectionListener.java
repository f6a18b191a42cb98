package dev.baton.recipes.election;

/**
 * Told what an {@link ElectionObserver} sees, in order, one call at a time, on the observer's
 * executor. A listener that throws is logged; the others still hear.
 */
@FunctionalInterface
public interface ElectionListener {
    /**
     * Called with each report, in order, one at a time.
     *
     * @param event who leads now, or that nobody does
     */
    void electionChanged(ElectionEvent event);
}
