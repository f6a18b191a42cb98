package dev.baton.server;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Stops, when this JVM exits, every child process still running ({@link ChildJvm} hands each
 * over): SIGTERM to each (a frozen one is killed at once: the signal would wait for a SIGCONT),
 * then SIGKILL to those still alive after {@link #EXIT_GRACE} in all. A server child so stops as
 * it would on Ctrl-C, and closes its files and sockets. A JVM killed with SIGKILL runs no
 * shutdown hook: its children must notice by themselves (see {@code ExitWithParent}).
 */
final class ChildReaper {
    /** How long the children still running when this JVM exits get to stop on SIGTERM before SIGKILL. */
    private static final Duration EXIT_GRACE = Duration.ofSeconds(3);
    private static final Set<Child> RUNNING = ConcurrentHashMap.newKeySet();

    /** A child process, and whether it is frozen now: read without its owner's lock, it only chooses the signal. */
    private record Child(Process process, BooleanSupplier paused) {
    }

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(ChildReaper::reapAtExit, "baton-child-jvm-reaper"));
    }

    private ChildReaper() {
    }

    /**
     * Stops {@code process} at this JVM's exit unless it has exited by then.
     *
     * @param paused whether the process is frozen by SIGSTOP now; called without any lock
     */
    static void watch(Process process, BooleanSupplier paused) {
        Child child = new Child(process, paused);
        RUNNING.add(child);
        process.onExit().thenRun(() -> RUNNING.remove(child));
    }

    private static void reapAtExit() {
        List<Child> children = List.copyOf(RUNNING);
        for (Child child : children) {
            if (child.paused().getAsBoolean()) {
                child.process().destroyForcibly();
            } else {
                child.process().destroy();
            }
        }
        long deadline = System.nanoTime() + EXIT_GRACE.toNanos();
        for (Child child : children) {
            Process process = child.process();
            try {
                long left = deadline - System.nanoTime();
                if (left <= 0 || !process.waitFor(left, TimeUnit.NANOSECONDS)) {
                    process.destroyForcibly();
                }
            } catch (InterruptedException e) {
                process.destroyForcibly();
            }
        }
    }
}
