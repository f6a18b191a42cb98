package dev.baton.framework.internal;

import dev.baton.framework.SerialQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs tasks one at a time, in submission order, on a delegate executor that may have many
 * threads (a {@link SerialQueue} drained there). Listener delivery goes through one of these, so
 * listeners see states in order even on a caller-supplied thread pool. A task that throws is logged
 * and does not stop later ones.
 */
public final class SerialExecutor implements Executor {
    private static final Logger LOG = LoggerFactory.getLogger(SerialExecutor.class);

    private final Executor delegate;
    private final SerialQueue tasks = new SerialQueue("a listener or callback");

    public SerialExecutor(Executor delegate) {
        this.delegate = delegate;
    }

    @Override
    public void execute(Runnable task) {
        tasks.add(task);
        if (!tasks.claim()) {
            return;
        }
        try {
            delegate.execute(tasks::drain);
        } catch (RejectedExecutionException closing) {
            // the client is closing: what was queued will not be delivered
            tasks.abandon();
            LOG.debug("event dropped: the client's executor is shut down");
        }
    }
}
