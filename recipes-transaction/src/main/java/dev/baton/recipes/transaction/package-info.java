/**
 * Two-phase commit coordinated through ZooKeeper: a coordinator starts a transaction over named
 * participants, each participant prepares and votes, and one decision node, created once,
 * records the outcome everyone acts on. See {@link dev.baton.recipes.transaction.TransactionCoordinator}
 * and {@link dev.baton.recipes.transaction.TransactionParticipant}.
 */
package dev.baton.recipes.transaction;
