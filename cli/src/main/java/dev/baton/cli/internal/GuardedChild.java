package dev.baton.cli.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A shell command run under a lock or leadership, which must not outlive what baton holds.
 *
 * <p>The command does not run as baton's own child: a small supervisor ({@code guard.sh}, run by
 * bash in a session of its own through {@code setsid}) starts it in a process group of its own
 * and stays between the two:
 * <ul>
 *   <li>baton's orders (SIGINT, SIGTERM and SIGHUP forwarded, TERM and KILL to stop it) reach the
 *       whole group, not only its first process: background processes of the command get them
 *       too;</li>
 *   <li>the supervisor's standard input is a pipe from baton. If baton dies in any way, even by
 *       SIGKILL or the OOM killer, the kernel closes the pipe with it; the supervisor reads end of
 *       file and kills the whole group at once. So the command never runs on after baton's
 *       session, and with it the lock, is gone;</li>
 *   <li>it exits only once nothing of the group runs any more: when the command ends and leaves
 *       processes behind, they get SIGTERM, then SIGKILL after the grace. So {@link #waitFor()}
 *       returning means the whole group is gone, and baton releases the lock only then.</li>
 * </ul>
 * The supervisor itself cannot be left behind: it exits when the group is gone, and its watcher
 * of the pipe exits at end of file or is killed by the supervisor. The command reads baton's own
 * standard input (opened again through {@code /proc/<baton pid>/fd/0}; {@code /dev/null} when
 * that cannot be opened, e.g. a socket) and writes to baton's standard output and error.
 *
 * <p>Needs Linux with bash and util-linux's {@code setsid}.
 */
public final class GuardedChild {
    private static final String SCRIPT = loadScript();

    private final Process supervisor;
    private final OutputStream orders;

    private GuardedChild(Process supervisor) {
        this.supervisor = supervisor;
        this.orders = supervisor.getOutputStream();
    }

    /**
     * Why {@code command} cannot be run — not found on the PATH, not executable — or empty if it
     * can. Checked before waiting for anything, so a typo is a usage error at once.
     */
    public static Optional<String> whyNotRunnable(String command) {
        if (command.contains("/")) {
            Path path = Path.of(command);
            return Files.isRegularFile(path) && Files.isExecutable(path) ? Optional.empty()
                : Optional.of(Files.exists(path) ? "not an executable file" : "no such file");
        }
        String searchPath = System.getenv("PATH");
        for (String dir : (searchPath == null ? "" : searchPath).split(":")) {
            Path candidate = Path.of(dir.isEmpty() ? "." : dir, command);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return Optional.empty();
            }
        }
        return Optional.of("not found on the PATH");
    }

    /**
     * Starts {@code command} with {@code env} added to baton's environment. {@code grace} is how
     * long background processes left by the command get between SIGTERM and SIGKILL when it ends.
     */
    public static GuardedChild start(List<String> command, Map<String, String> env, Duration grace) throws IOException {
        List<String> argv = new ArrayList<>(List.of("setsid", "bash", "-c", SCRIPT, "baton-guard",
            Long.toString(ProcessHandle.current().pid()), Long.toString(grace.toMillis())));
        argv.addAll(command);
        ProcessBuilder builder = new ProcessBuilder(argv)
            .redirectInput(ProcessBuilder.Redirect.PIPE)
            .redirectOutput(ProcessBuilder.Redirect.INHERIT)
            .redirectError(ProcessBuilder.Redirect.INHERIT);
        builder.environment().putAll(env);
        GuardedChild child = new GuardedChild(builder.start());
        Signals.forwardTo(child::signal);
        return child;
    }

    /**
     * Waits until the command and every process of its group have ended; the command's exit
     * code, 128+N if signal N ended it.
     */
    public int waitFor() throws InterruptedException {
        return supervisor.waitFor();
    }

    public boolean isAlive() {
        return supervisor.isAlive();
    }

    /**
     * Stops the whole process group: SIGTERM, then SIGKILL if anything of it still runs after
     * {@code grace}. Returns once it is all gone.
     */
    public void stop(Duration grace) throws InterruptedException {
        signal("TERM");
        if (!supervisor.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
            signal("KILL");
            if (!supervisor.waitFor(5, TimeUnit.SECONDS)) {
                // a supervisor that does not answer: killing it closes the pipe, and its watcher kills the group
                supervisor.destroyForcibly().waitFor();
            }
        }
    }

    /** Sends {@code signal} (TERM, INT, HUP, KILL) to every process of the command's group. */
    public void signal(String signal) {
        synchronized (orders) {
            try {
                orders.write((signal + "\n").getBytes(StandardCharsets.US_ASCII));
                orders.flush();
            } catch (IOException gone) {
                // the supervisor has exited: nothing of the group runs any more
            }
        }
    }

    private static String loadScript() {
        try (InputStream in = GuardedChild.class.getResourceAsStream("guard.sh")) {
            if (in == null) {
                throw new IllegalStateException("guard.sh is missing from the baton jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read guard.sh from the baton jar", e);
        }
    }
}
