package dev.baton.recipes.config;

import dev.baton.framework.BatonException;
import java.util.List;

/** The store's {@link ReleaseValidator} refused a release; nothing was written. */
public class ReleaseRejectedException extends BatonException {
    private static final long serialVersionUID = 1L;

    /** What the validator found wrong. */
    private final List<String> problems;

    /**
     * A release the validator refused.
     *
     * @param base the store's base path
     * @param number the number the release would have had
     * @param problems what the validator found wrong
     */
    public ReleaseRejectedException(String base, long number, List<String> problems) {
        super("release " + number + " of " + base + " refused by the validator: " + String.join("; ", problems));
        this.problems = List.copyOf(problems);
    }

    /**
     * What the validator found wrong.
     *
     * @return the validator's problems, as it gave them
     */
    public List<String> problems() {
        return problems;
    }
}
