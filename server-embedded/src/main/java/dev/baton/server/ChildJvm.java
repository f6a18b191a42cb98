package dev.baton.server;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * A JVM started as a child of this one — on this JVM's own Java and class path — that a test can
 * freeze, thaw and kill with real signals. It is the one launcher behind child-process servers
 * ({@link ServerMode#CHILD_PROCESSES}) and behind baton-test-support's client processes.
 *
 * <p>The child gets a small heap, the serial collector and the client compiler only, because
 * tests start many short-lived JVMs on small machines and start-up time dominates. Standard
 * input, output and error are pipes unless the builder redirects them.
 *
 * <p>Signals: {@link #pause()} sends SIGSTOP and returns once the kernel reports the process
 * stopped (read from {@code /proc} on Linux; elsewhere once {@code kill} returns), so nothing the
 * child does can be stamped later than the moment {@code pause()} returns. {@link #resume()}
 * sends SIGCONT, {@link #kill()} SIGKILL and waits for the exit, {@link #stop(Duration)} SIGTERM
 * (after SIGCONT if paused, or the signal would wait) and SIGKILL if the child outlives the grace
 * period. SIGSTOP and SIGCONT go through the {@code kill} command, so pausing needs a Unix-like
 * system: {@link #signalsSupported()} says whether this one is; on Windows {@code pause()} and
 * {@code resume()} fail with {@link UnsupportedOperationException}.
 *
 * <p>Lifetime: a JVM shutdown hook stops every child still running when this JVM exits — SIGTERM,
 * and SIGKILL for one still alive 3 s later or frozen by {@link #pause()} — so a test run that
 * ends, even abnormally, leaves no child behind, and a server child shuts down as on Ctrl-C. A parent killed with SIGKILL runs
 * no hook: a child that must not outlive it should also exit when its standard input reaches
 * end-of-file (test-support's client processes and child-process servers do).
 *
 * <pre>{@code
 * ChildJvm child = ChildJvm.builder("com.example.Worker").args(List.of("127.0.0.1:2181")).start();
 * child.pause();    // frozen: sockets open, nothing runs
 * child.resume();
 * child.kill();     // SIGKILL, like a power cut
 * }</pre>
 */
public final class ChildJvm {
    private static final Duration EXIT_TIMEOUT = Duration.ofSeconds(10);

    private final String mainClass;
    private final Process process;
    /** Written under this object's lock; read without it by the exit's reaper, which only chooses the signal by it. */
    private volatile boolean paused;

    private ChildJvm(String mainClass, Process process) {
        this.mainClass = mainClass;
        this.process = process;
        ChildReaper.watch(process, () -> paused);
    }

    /**
     * Starts configuring a child that will run {@code mainClass}.
     *
     * @param mainClass the fully qualified name of a class with a {@code main} method, on this
     *     JVM's class path (the child is started with the same class path)
     * @return a builder with the defaults described on its setters; nothing is started until
     *     {@link Builder#start()}
     * @throws NullPointerException if {@code mainClass} is null
     */
    public static Builder builder(String mainClass) {
        return new Builder(mainClass);
    }

    /**
     * Whether this platform can pause and resume a child (SIGSTOP/SIGCONT through {@code kill}).
     *
     * @return {@code false} on Windows, {@code true} on every other system
     */
    public static boolean signalsSupported() {
        return Signals.supported();
    }

    /**
     * The child's process, for its standard streams and its exit.
     *
     * @return the process this JVM started; the same object on every call
     */
    public Process process() {
        return process;
    }

    /**
     * The child's operating-system process id.
     *
     * @return the pid, as {@code kill} and {@code /proc} know it
     */
    public long pid() {
        return process.pid();
    }

    /**
     * Whether the child has not exited yet. A paused child is alive.
     *
     * @return {@code true} until the child process has ended, for whatever reason
     */
    public boolean isAlive() {
        return process.isAlive();
    }

    /**
     * Whether the child is frozen by {@link #pause()}.
     *
     * @return {@code true} if it was paused, has not been resumed since, and is still alive
     */
    public synchronized boolean isPaused() {
        return paused && process.isAlive();
    }

    /**
     * Freezes the child (SIGSTOP): every thread stops, sockets and pipes stay open. Returns once
     * the child is stopped.
     *
     * @throws IllegalStateException if it is not running, the signal cannot be sent, or the child
     *     is not reported stopped within 5 s
     * @throws UnsupportedOperationException if this platform cannot send SIGSTOP (see
     *     {@link #signalsSupported()})
     */
    public synchronized void pause() {
        if (!process.isAlive()) {
            throw new IllegalStateException(this + " is not running, so it cannot be paused");
        }
        Signals.send(process, "STOP", this);
        paused = true;
        Signals.awaitStopped(process, this);
    }

    /**
     * Thaws a child frozen by {@link #pause()} (SIGCONT); does nothing if it is not paused.
     *
     * @throws IllegalStateException if the signal cannot be sent
     * @throws UnsupportedOperationException if this platform cannot send SIGCONT (see
     *     {@link #signalsSupported()})
     */
    public synchronized void resume() {
        if (paused && process.isAlive()) {
            Signals.send(process, "CONT", this);
        }
        paused = false;
    }

    /**
     * Kills the child with SIGKILL — no shutdown of any kind — and waits until it has exited.
     *
     * @throws IllegalStateException if it is still alive 10 s after the signal
     * @throws InterruptedException if this thread is interrupted while waiting for the exit (the
     *     signal has been sent)
     */
    public synchronized void kill() throws InterruptedException {
        process.destroyForcibly();
        paused = false;
        if (!process.waitFor(EXIT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException(this + " was still alive " + EXIT_TIMEOUT + " after SIGKILL");
        }
    }

    /**
     * Stops the child with SIGTERM (thawing it first if paused, or the signal would wait), and
     * kills it with SIGKILL if it has not exited within {@code grace}. Returns once it has exited;
     * does nothing if it already has.
     *
     * @param grace how long the child may take to exit after SIGTERM before it is killed
     * @throws IllegalStateException if it is still alive 10 s after SIGKILL, or a paused child
     *     cannot be thawed
     * @throws InterruptedException if this thread is interrupted while waiting for the exit
     * @throws NullPointerException if {@code grace} is null
     */
    public synchronized void stop(Duration grace) throws InterruptedException {
        Objects.requireNonNull(grace, "grace");
        if (!process.isAlive()) {
            return;
        }
        resume();
        process.destroy();
        if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
            kill();
        }
    }

    @Override
    public String toString() {
        return "child JVM " + process.pid() + " (" + mainClass + ")";
    }

    /** Configures a {@link ChildJvm}. */
    public static final class Builder {
        private final String mainClass;
        private String heap = "128m";
        private final Map<String, String> properties = new LinkedHashMap<>();
        private final List<String> args = new ArrayList<>();
        private ProcessBuilder.Redirect input = ProcessBuilder.Redirect.PIPE;
        private ProcessBuilder.Redirect output = ProcessBuilder.Redirect.PIPE;
        private ProcessBuilder.Redirect error = ProcessBuilder.Redirect.PIPE;
        private boolean errorToOutput;
        /** The child's class path; null for this JVM's own. */
        private List<Path> classPath;

        private Builder(String mainClass) {
            this.mainClass = Objects.requireNonNull(mainClass, "mainClass");
        }

        /**
         * Sets the child's maximum heap. Default 128m.
         *
         * @param size the size as {@code -Xmx} takes it, such as {@code "256m"}; not checked here,
         *     so a malformed size makes the child fail at start-up
         * @return this builder
         * @throws NullPointerException if {@code size} is null
         */
        public Builder heap(String size) {
            this.heap = Objects.requireNonNull(size, "size");
            return this;
        }

        /**
         * Adds a {@code -D} system property for the child; setting the same key again replaces
         * the value.
         *
         * @param key the property name
         * @param value the property value
         * @return this builder
         * @throws NullPointerException if {@code key} or {@code value} is null
         */
        public Builder systemProperty(String key, String value) {
            properties.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
            return this;
        }

        /**
         * Appends arguments to the main class, after any added before.
         *
         * @param arguments the arguments, in order
         * @return this builder
         * @throws NullPointerException if {@code arguments} or one of its elements is null
         */
        public Builder args(List<String> arguments) {
            arguments.forEach(a -> args.add(Objects.requireNonNull(a, "argument")));
            return this;
        }

        /**
         * Runs the child on these jars and folders instead of this JVM's class path: how a
         * child-process server runs another ZooKeeper version than the one this JVM links.
         *
         * @param entries the class path, in order; must not be empty
         * @return this builder
         * @throws IllegalArgumentException if {@code entries} is empty
         * @throws NullPointerException if {@code entries} or one of its elements is null
         */
        public Builder classPath(List<Path> entries) {
            List<Path> copy = List.copyOf(entries);
            if (copy.isEmpty()) {
                throw new IllegalArgumentException("a child's class path needs at least one jar or folder, was empty");
            }
            this.classPath = copy;
            return this;
        }

        /**
         * Sets where the child's standard input comes from (default: a pipe from this JVM).
         *
         * @param redirect the redirection, as {@link ProcessBuilder} takes it
         * @return this builder
         * @throws NullPointerException if {@code redirect} is null
         */
        public Builder input(ProcessBuilder.Redirect redirect) {
            this.input = Objects.requireNonNull(redirect, "redirect");
            return this;
        }

        /**
         * Sets where the child's standard output goes (default: a pipe to this JVM).
         *
         * @param redirect the redirection, as {@link ProcessBuilder} takes it
         * @return this builder
         * @throws NullPointerException if {@code redirect} is null
         */
        public Builder output(ProcessBuilder.Redirect redirect) {
            this.output = Objects.requireNonNull(redirect, "redirect");
            return this;
        }

        /**
         * Sets where the child's standard error goes (default: a pipe to this JVM).
         *
         * @param redirect the redirection, as {@link ProcessBuilder} takes it
         * @return this builder
         * @throws NullPointerException if {@code redirect} is null
         */
        public Builder error(ProcessBuilder.Redirect redirect) {
            this.error = Objects.requireNonNull(redirect, "redirect");
            return this;
        }

        /**
         * Sends standard error where standard output goes; overrides {@link #error(ProcessBuilder.Redirect)}.
         *
         * @return this builder
         */
        public Builder errorToOutput() {
            this.errorToOutput = true;
            return this;
        }

        /**
         * Starts the child on this JVM's Java, and on this JVM's class path unless
         * {@link #classPath(List)} chose another. Returns as soon as the process
         * exists, not when its main class is running.
         *
         * @return the running child, killed by this JVM's shutdown hook if still alive at exit
         * @throws IOException if the process cannot be started
         */
        public ChildJvm start() throws IOException {
            List<String> command = new ArrayList<>();
            command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            command.add("-Xmx" + heap);
            command.add("-XX:+UseSerialGC");
            command.add("-XX:TieredStopAtLevel=1");
            command.add("-Djava.net.preferIPv4Stack=true");
            properties.forEach((key, value) -> command.add("-D" + key + "=" + value));
            command.add("-cp");
            command.add(classPath == null ? System.getProperty("java.class.path")
                : classPath.stream().map(Path::toString).collect(Collectors.joining(File.pathSeparator)));
            command.add(mainClass);
            command.addAll(args);
            ProcessBuilder builder = new ProcessBuilder(command).redirectInput(input).redirectOutput(output);
            if (errorToOutput) {
                builder.redirectErrorStream(true);
            } else {
                builder.redirectError(error);
            }
            return new ChildJvm(mainClass, builder.start());
        }
    }
}
