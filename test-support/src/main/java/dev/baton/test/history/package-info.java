/**
 * Histories of what the actors of a test did, and checkers that decide from a history whether an
 * invariant held (one lock holder at a time, increasing fencing tokens, ...). Fault tests record
 * as they go and judge at the end, instead of asserting in the middle of a race.
 */
package dev.baton.test.history;
