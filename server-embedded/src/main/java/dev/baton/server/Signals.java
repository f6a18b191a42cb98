package dev.baton.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Unix signals to a child process, through the {@code kill} command, and the wait for SIGSTOP to
 * take hold, read from {@code /proc/<pid>/stat} where there is a {@code /proc}. Each failure names
 * the child as its owner describes it.
 */
final class Signals {
    private static final Duration SIGNAL_TIMEOUT = Duration.ofSeconds(5);

    private Signals() {
    }

    /** {@return whether this system can send SIGSTOP and SIGCONT: every one but Windows} */
    static boolean supported() {
        return !System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("windows");
    }

    /**
     * Sends SIG{@code name} to {@code process}.
     *
     * @param child the process's owner, as failures name it
     * @throws UnsupportedOperationException on a system without {@code kill}
     * @throws IllegalStateException if {@code kill} fails, or this thread is interrupted meanwhile
     */
    static void send(Process process, String name, Object child) {
        if (!supported()) {
            throw new UnsupportedOperationException("SIG" + name + " needs a Unix-like system; this is "
                + System.getProperty("os.name"));
        }
        try {
            Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).start();
            if (!kill.waitFor(SIGNAL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS) || kill.exitValue() != 0) {
                throw new IllegalStateException("kill -" + name + " " + process.pid() + " failed");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run kill -" + name, e);
        } catch (InterruptedException e) {
            // the signal may or may not have been sent: say so rather than guess
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while sending SIG" + name + " to " + child, e);
        }
    }

    /**
     * Waits until the kernel reports {@code process} stopped. {@code kill} only queues the signal; a
     * caller that stamps "paused at" must know the child can no longer act.
     *
     * @param child the process's owner, as failures name it
     * @throws IllegalStateException if it is not reported stopped within 5 s
     */
    static void awaitStopped(Process process, Object child) {
        Path stat = Path.of("/proc", Long.toString(process.pid()), "stat");
        if (!Files.exists(stat)) {
            return;  // no procfs: the signal was sent, which is as far as this platform lets us see
        }
        long deadline = System.nanoTime() + SIGNAL_TIMEOUT.toNanos();
        while (System.nanoTime() - deadline < 0) {
            char state = processState(stat);
            if (state == 'T' || state == 't' || state == 'X' || state == 'Z' || !process.isAlive()) {
                return;
            }
            LockSupport.parkNanos(200_000);  // the kernel stops it within microseconds; do not take a core from it
        }
        throw new IllegalStateException(child + " did not stop within " + SIGNAL_TIMEOUT + " of SIGSTOP");
    }

    /** The state letter of {@code /proc/<pid>/stat} (after the command name, which may hold spaces). */
    private static char processState(Path stat) {
        try {
            String line = Files.readString(stat, StandardCharsets.US_ASCII);
            return line.charAt(line.lastIndexOf(')') + 2);
        } catch (IOException | RuntimeException gone) {
            return 'X';
        }
    }
}
