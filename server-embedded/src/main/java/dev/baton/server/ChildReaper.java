package dev.baton.server;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Stops, when this JVM exits, every {@link ChildJvm} still running: SIGTERM to each (a frozen one
 * is killed at once: the signal would wait for a SIGCONT), then SIGKILL to those still alive after
 * {@link #EXIT_GRACE} in all. A server child so stops as it would on Ctrl-C, and closes its files
 * and sockets. A JVM killed with SIGKILL runs no shutdown hook: its children must notice by
 * themselves (see {@code ExitWithParent}).
 */
final class ChildReaper {
    /** How long the children still running when this JVM exits get to stop on SIGTERM before SIGKILL. */
    private static final Duration EXIT_GRACE = Duration.ofSeconds(3);
    private static final Set<ChildJvm> RUNNING = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(ChildReaper::reapAtExit, "baton-child-jvm-reaper"));
    }

    private ChildReaper() {
    }

    /** Stops {@code child} at this JVM's exit unless it has exited by then. */
    static void watch(ChildJvm child) {
        RUNNING.add(child);
        child.process().onExit().thenRun(() -> RUNNING.remove(child));
    }

    private static void reapAtExit() {
        List<ChildJvm> children = List.copyOf(RUNNING);
        for (ChildJvm child : children) {
            if (child.pausedUnlocked()) {
                child.process().destroyForcibly();
            } else {
                child.process().destroy();
            }
        }
        long deadline = System.nanoTime() + EXIT_GRACE.toNanos();
        for (ChildJvm child : children) {
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
