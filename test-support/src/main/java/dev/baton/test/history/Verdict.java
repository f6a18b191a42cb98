package dev.baton.test.history;

import java.util.List;

/**
 * What a checker concluded about a history: the invariant it checked, how many events it
 * looked at, and every violation it found (empty when the invariant held).
 *
 * <p>A checker of your own, for an invariant the checkers here do not state, returns one too:
 * {@code new Verdict("every acknowledged increment counted once", entries.size(), violations)}.
 * {@link #assertOk()} shows the first 20 violations only, so write one per cause, naming the
 * entries that show it, rather than one per consequence.
 */
public record Verdict(String invariant, int eventsChecked, List<String> violations) {
    private static final int SHOWN = 20;

    /**
     * Keeps an unmodifiable copy of the violations.
     *
     * @param invariant the invariant checked
     * @param eventsChecked how many events the checker looked at
     * @param violations every violation found
     */
    public Verdict {
        violations = List.copyOf(violations);
    }

    /** {@return whether the invariant held} */
    public boolean isOk() {
        return violations.isEmpty();
    }

    /** Fails with every violation (the first {@value #SHOWN}) unless the invariant held. */
    public void assertOk() {
        if (!isOk()) {
            StringBuilder message = new StringBuilder(invariant + " violated " + violations.size() + " time(s) in "
                + eventsChecked + " events:");
            violations.stream().limit(SHOWN).forEach(v -> message.append("\n  ").append(v));
            if (violations.size() > SHOWN) {
                message.append("\n  ...");
            }
            throw new AssertionError(message.toString());
        }
    }
}
