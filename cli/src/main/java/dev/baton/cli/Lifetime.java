package dev.baton.cli;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Ties a long-running subcommand to the process's life: Ctrl-C or SIGTERM asks it to stop, and
 * the JVM waits (up to a bound) for it to clean up — release a lock, end a session — before it
 * exits, so nothing is left behind for the servers to expire later.
 */
final class Lifetime implements AutoCloseable {
    private static final Duration CLEANUP_BOUND = Duration.ofSeconds(15);

    private final CountDownLatch stop = new CountDownLatch(1);
    private final CountDownLatch cleanedUp = new CountDownLatch(1);
    private final Thread hook;

    Lifetime() {
        hook = new Thread(() -> {
            stop.countDown();
            try {
                cleanedUp.await(CLEANUP_BOUND.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "baton-stop");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /** Waits until the process is asked to stop. */
    void awaitStop() throws InterruptedException {
        stop.await();
    }

    /** Whether the process was asked to stop. */
    boolean stopRequested() {
        return stop.getCount() == 0;
    }

    /** The cleanup is done: the JVM may exit. */
    @Override
    public void close() {
        cleanedUp.countDown();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is what is running: it will see cleanedUp
        }
    }
}
