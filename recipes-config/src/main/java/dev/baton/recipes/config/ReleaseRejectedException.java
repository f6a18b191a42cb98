package dev.baton.recipes.config;

import dev.baton.framework.BatonException;
import java.util.List;

/** The store's {@link ReleaseValidator} refused a release; nothing was written. */
public class ReleaseRejectedException extends BatonException {
    private static final long serialVersionUID = 1L;

    private final List<String> problems;

    public ReleaseRejectedException(String base, long number, List<String> problems) {
        super("release " + number + " of " + base + " refused by the validator: " + String.join("; ", problems));
        this.problems = List.copyOf(problems);
    }

    /** What the validator found wrong. */
    public List<String> problems() {
        return problems;
    }
}
