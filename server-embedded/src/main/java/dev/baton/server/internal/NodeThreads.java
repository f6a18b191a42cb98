package dev.baton.server.internal;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The thread group every thread of one in-process server belongs to.
 *
 * <p>A server is started from a thread of its own group, so every thread ZooKeeper creates for it
 * (selector, request processors, election, learner handlers, ...) is a member. Stopping can then
 * wait until the group is empty, which is how an ensemble proves that {@code close()} left no
 * thread behind.
 */
final class NodeThreads {
    private static final Logger LOG = LoggerFactory.getLogger(NodeThreads.class);

    private static final Duration INTERRUPT_GRACE = Duration.ofMillis(100);

    private final ThreadGroup group;

    NodeThreads(String name) {
        this.group = new ThreadGroup(name);
    }

    /** Work to run on a thread of the group: starting a server, which does I/O and may wait. */
    @FunctionalInterface
    interface Action<T> {
        T run() throws IOException, InterruptedException;
    }

    /** Runs {@code action} on a fresh thread of this group and waits for it; rethrows what it threw. */
    <T> T call(String threadName, Action<T> action) throws IOException, InterruptedException {
        AtomicReference<T> result = new AtomicReference<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread thread = new Thread(group, () -> {
            try {
                result.set(action.run());
            } catch (Throwable e) {
                failure.set(e);
            }
        }, threadName);
        thread.start();
        thread.join();
        Throwable thrown = failure.get();
        if (thrown instanceof IOException e) {
            throw e;
        }
        if (thrown instanceof InterruptedException e) {
            throw e;
        }
        if (thrown instanceof RuntimeException e) {
            throw e;
        }
        if (thrown != null) {
            // an Error (a missing class, say), or a checked exception Action does not declare,
            // must not pass for a successful start
            throw new IllegalStateException(thrown.toString(), thrown);
        }
        return result.get();
    }

    /**
     * Starts server {@code id} by running {@code action} on a thread of this group; if starting
     * fails in any way, runs {@code stop} before reporting it. An interrupted start is reported as
     * an {@link IOException} with the thread's interrupt flag set again (after {@code stop}, so
     * stopping is not cut short).
     */
    <T> T start(int id, Action<T> action, Runnable stop) throws IOException {
        try {
            return call("baton-start-server-" + id, action);
        } catch (IOException | RuntimeException e) {
            stop.run();
            throw e;
        } catch (InterruptedException e) {
            stop.run();
            Thread.currentThread().interrupt();
            throw new IOException("server " + id + " failed to start: " + e.getMessage(), e);
        }
    }

    /**
     * Waits until no thread of the group is alive. ZooKeeper's election workers poll a queue for
     * three seconds before they notice a shutdown, so after a short grace they are interrupted
     * (they exit cleanly on interrupt); any other straggler is interrupted half way to the
     * deadline.
     *
     * @return the names of threads still alive at the deadline (empty when all ended)
     */
    List<String> awaitEmpty(Duration timeout) throws InterruptedException {
        long start = System.nanoTime();
        long deadline = start + timeout.toNanos();
        boolean interrupted = false;
        while (true) {
            List<Thread> alive = alive();
            if (alive.isEmpty()) {
                return List.of();
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                List<String> names = new ArrayList<>();
                alive.forEach(t -> names.add(t.getName()));
                LOG.warn("threads of {} still alive after {}: {}", group.getName(), timeout, names);
                return names;
            }
            long elapsed = System.nanoTime() - start;
            if (elapsed > INTERRUPT_GRACE.toNanos()) {
                alive.stream().filter(NodeThreads::isElectionWorker).forEach(Thread::interrupt);
            }
            if (!interrupted && elapsed > timeout.toNanos() / 2) {
                alive.forEach(Thread::interrupt);
                interrupted = true;
            }
            alive.get(0).join(Math.max(1, Math.min(left / 1_000_000, 50)));
        }
    }

    private static boolean isElectionWorker(Thread t) {
        return t.getName().startsWith("WorkerSender") || t.getName().startsWith("WorkerReceiver");
    }

    private List<Thread> alive() {
        Thread[] threads = new Thread[group.activeCount() + 16];
        int n = group.enumerate(threads, true);
        List<Thread> alive = new ArrayList<>();
        for (Thread t : Arrays.copyOf(threads, n)) {
            if (t.isAlive() && t != Thread.currentThread()) {
                alive.add(t);
            }
        }
        return alive;
    }
}
