/**
 * Histories of what the actors of a test did, and checkers that decide from a history whether an
 * invariant held (one lock holder at a time, increasing fencing tokens, ...). Fault tests record
 * as they go and judge at the end, instead of asserting in the middle of a race.
 *
 * <p>{@link dev.baton.test.history.History}'s events describe holds (a lock's, a leader's). An
 * invariant about something else needs no extension here: record entries of your own and judge
 * them into a {@link dev.baton.test.history.Verdict}.
 */
package dev.baton.test.history;
