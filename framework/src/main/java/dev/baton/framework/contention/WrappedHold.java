package dev.baton.framework.contention;

/**
 * A hold that stands for another one and adds something around it (the observer's reporting
 * wrapper, {@code framework.observe.ObservedHolds}). Code that needs the hold a recipe made —
 * the shared-ticket line looks for its own {@link LocalHold} — looks through it with
 * {@link #unwrap(Hold)}.
 *
 * <p>It lives here, beside {@link Hold}, so that the contention engine can see through a wrapper
 * without depending on the packages that wrap.
 */
public interface WrappedHold extends Hold {
    /** {@return the hold this one stands for} */
    Hold wrapped();

    /**
     * {@return the innermost hold {@code hold} stands for, or {@code hold} itself if it wraps none}
     *
     * @param hold any hold
     */
    static Hold unwrap(Hold hold) {
        Hold h = hold;
        while (h instanceof WrappedHold w) {
            h = w.wrapped();
        }
        return h;
    }
}
