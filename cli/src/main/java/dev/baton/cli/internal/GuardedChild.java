package dev.baton.cli.internal;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A shell command run under a lock or leadership: in its own process group (through
 * {@code setsid}), so that stopping it reaches everything it started, with SIGINT, SIGTERM and
 * SIGHUP sent to {@code baton} forwarded to the group.
 */
public final class GuardedChild {
    private final Process process;
    private volatile boolean stopping;

    private GuardedChild(Process process) {
        this.process = process;
    }

    /** Starts {@code command} with {@code env} added to baton's environment, sharing baton's terminal. */
    public static GuardedChild start(List<String> command, Map<String, String> env) throws IOException {
        List<String> argv = new ArrayList<>();
        argv.add("setsid");
        argv.addAll(command);
        ProcessBuilder builder = new ProcessBuilder(argv).inheritIO();
        builder.environment().putAll(env);
        GuardedChild child = new GuardedChild(builder.start());
        Signals.forwardTo(child::signal);
        return child;
    }

    /** Waits for the command to end; its exit code, 128+N if signal N ended it. */
    public int waitFor() throws InterruptedException {
        return process.waitFor();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** Whether {@link #stop} was called (the command was stopped because the lock or leadership went). */
    public boolean wasStopped() {
        return stopping;
    }

    /**
     * Stops the whole process group: SIGTERM, then SIGKILL if it is still alive after
     * {@code grace}. Returns once it is dead.
     */
    public void stop(Duration grace) throws InterruptedException {
        stopping = true;
        signal("TERM");
        if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
            signal("KILL");
            process.waitFor();
        }
    }

    /** Sends {@code signal} (TERM, INT, HUP, KILL) to the command's process group. */
    public void signal(String signal) {
        if (!process.isAlive()) {
            return;
        }
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, "--", "-" + process.pid())
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            kill.waitFor(5, TimeUnit.SECONDS);
        } catch (IOException e) {
            process.destroyForcibly();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
