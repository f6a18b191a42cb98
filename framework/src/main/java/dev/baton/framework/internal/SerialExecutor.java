package dev.baton.framework.internal;

import dev.baton.framework.BatonClient;
import dev.baton.framework.SerialQueue;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs tasks one at a time, in submission order, on a delegate executor that may have many
 * threads (a {@link SerialQueue} drained there). Listener delivery goes through one of these, so
 * listeners see states in order even on a caller-supplied thread pool. A task that throws is logged
 * and does not stop later ones. {@link #execute} never throws {@code RejectedExecutionException}:
 * a delegate that refuses while the client is open gets the queued tasks again later, in order
 * ({@link SerialQueue#runOn}); once the client is closed, or the delegate is shut down, what was
 * queued is dropped.
 */
public final class SerialExecutor implements Executor {
    private static final Logger LOG = LoggerFactory.getLogger(SerialExecutor.class);

    private final Executor delegate;
    private final BatonClient client;
    private final SerialQueue tasks;

    /**
     * @param delegate where the tasks run
     * @param client whose closing ends the retries when the delegate refuses
     * @param owner names whose tasks these are, in log lines ("the client's event executor")
     */
    public SerialExecutor(Executor delegate, BatonClient client, String owner) {
        this.delegate = delegate;
        this.client = client;
        this.tasks = new SerialQueue(owner);
    }

    @Override
    public void execute(Runnable task) {
        tasks.add(task);
        tasks.runOn(delegate, client, SerialExecutor::drop);
    }

    private static void drop(SerialQueue tasks) {
        tasks.abandon();
        LOG.debug("events dropped: the client is closed or its executor shut down");
    }
}
