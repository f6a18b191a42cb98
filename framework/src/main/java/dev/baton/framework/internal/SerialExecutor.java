package dev.baton.framework.internal;

import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs tasks one at a time, in submission order, on a delegate executor that may have many
 * threads. Listener delivery goes through one of these, so listeners see states in order even on
 * a caller-supplied thread pool. A task that throws is logged and does not stop later ones.
 */
public final class SerialExecutor implements Executor {
    private static final Logger LOG = LoggerFactory.getLogger(SerialExecutor.class);

    private final Executor delegate;
    private final Queue<Runnable> tasks = new ArrayDeque<>();
    private boolean running;

    public SerialExecutor(Executor delegate) {
        this.delegate = delegate;
    }

    @Override
    public void execute(Runnable task) {
        synchronized (tasks) {
            tasks.add(task);
            if (running) {
                return;
            }
            running = true;
        }
        try {
            delegate.execute(this::drain);
        } catch (RejectedExecutionException closing) {
            // the client is closing: what was queued will not be delivered
            synchronized (tasks) {
                tasks.clear();
                running = false;
            }
            LOG.debug("event dropped: the client's executor is shut down");
        }
    }

    private void drain() {
        while (true) {
            Runnable next;
            synchronized (tasks) {
                next = tasks.poll();
                if (next == null) {
                    running = false;
                    return;
                }
            }
            try {
                next.run();
            } catch (RuntimeException | Error e) {
                LOG.error("listener or callback threw; later ones still run", e);
            }
        }
    }
}
