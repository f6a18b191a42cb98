package dev.baton.recipes.queue;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ConnectionStateChange;
import dev.baton.framework.ConnectionStateListener;
import dev.baton.framework.ConnectionState;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;

/**
 * "Something may have changed": bumped by watches and by reconnects (a session expiry drops
 * watches, so a waiter must look again). Waiters remember the generation they saw before they
 * looked, and wait for it to change, so no event between looking and waiting is lost.
 */
final class Signal implements Watcher, ConnectionStateListener {
    private long generation;

    public synchronized long generation() {
        return generation;
    }

    public synchronized void bump() {
        generation++;
        notifyAll();
    }

    @Override
    public void process(WatchedEvent event) {
        bump();
    }

    @Override
    public void stateChanged(BatonClient client, ConnectionState newState) {
        if (newState.isConnected()) {
            bump();
        }
    }

    @Override
    public void stateChanged(BatonClient client, ConnectionStateChange change) {
        stateChanged(client, change.state());
    }

    /** Waits until the generation differs from {@code seen} or {@code deadlineNanos} (System.nanoTime) passes. */
    public synchronized boolean awaitChange(long seen, long deadlineNanos) throws InterruptedException {
        while (generation == seen) {
            long remaining = deadlineNanos - System.nanoTime();
            if (remaining <= 0) {
                return false;
            }
            long millis = Math.max(1, remaining / 1_000_000);
            wait(millis);
        }
        return true;
    }
}
