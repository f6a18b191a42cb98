package dev.baton.recipes.transaction;

/** A participant's answer to prepare. */
public enum Vote {
    /** Prepared: the participant can commit, and has made that durable. */
    COMMIT,
    /** The participant cannot commit; the transaction aborts. */
    ABORT
}
