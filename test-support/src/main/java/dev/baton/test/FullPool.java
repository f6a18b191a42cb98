package dev.baton.test;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An executor that behaves like a bounded pool that is full while the test says so: it refuses
 * every task with {@link RejectedExecutionException} while {@link #refuse(boolean)} is on, and
 * otherwise runs tasks on a thread of its own. For tests of what Baton does when a caller-supplied
 * executor refuses its listener calls; the test turns refusing off and no further change is
 * needed for what was refused to arrive.
 *
 * <pre>{@code
 * try (FullPool events = new FullPool("events")) {
 *     BatonClient client = TestClients.started(BatonClient.builder().connectString(cs).eventExecutor(events));
 *     events.refuse(true);
 *     ...
 * }
 * }</pre>
 */
public final class FullPool implements java.util.concurrent.Executor, AutoCloseable {
    private final ExecutorService thread;
    private final AtomicInteger refused = new AtomicInteger();
    private volatile boolean refusing;

    /**
     * A pool that takes tasks until told to refuse them.
     *
     * @param name its thread's name
     */
    public FullPool(String name) {
        this.thread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Starts or stops refusing every task.
     *
     * @param on whether to refuse from now on
     */
    public void refuse(boolean on) {
        refusing = on;
    }

    /** {@return how many tasks were refused so far} */
    public int refused() {
        return refused.get();
    }

    @Override
    public void execute(Runnable task) {
        if (refusing) {
            refused.incrementAndGet();
            throw new RejectedExecutionException("the pool is full (refused on purpose by the test)");
        }
        thread.execute(task);
    }

    /** Stops the pool's thread. */
    @Override
    public void close() {
        thread.shutdownNow();
    }
}
