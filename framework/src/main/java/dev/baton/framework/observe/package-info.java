/**
 * How recipes report to the client's {@link dev.baton.framework.BatonObserver}: helpers that time
 * an acquisition and follow the hold it grants, so that each lock-like recipe reports with one
 * call at its acquire method and no recipe writes its own bookkeeping.
 */
package dev.baton.framework.observe;
