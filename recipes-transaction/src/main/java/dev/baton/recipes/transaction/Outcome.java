package dev.baton.recipes.transaction;

/** What was decided for a transaction. */
public enum Outcome {
    /** Every participant voted commit before anyone recorded an abort. */
    COMMIT,
    /** A participant voted abort, or the deadline passed with votes missing. */
    ABORT
}
