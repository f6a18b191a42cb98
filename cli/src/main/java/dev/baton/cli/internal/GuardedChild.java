package dev.baton.cli.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A shell command run under a lock or leadership, which must not outlive what baton holds.
 *
 * <p>The command does not run as baton's own child: a small supervisor ({@code guard.sh}, run by
 * bash as the leader of a session of its own through {@code setsid --wait}) starts it — in that
 * session, in a process group of its own — and stays between the two. Everything the command
 * starts is in the session too, unless it starts a session of its own ({@code setsid}); moving to
 * another process group ({@code setpgid}) does not leave it. The supervisor acts on the whole
 * session:
 * <ul>
 *   <li>baton's orders (SIGINT, SIGTERM and SIGHUP forwarded, TERM and KILL to stop the command)
 *       reach every process of the session;</li>
 *   <li>orders travel through a FIFO in a private directory (mode 0700) that baton holds open
 *       for writing. If baton dies in any way, even by SIGKILL or the OOM killer, the kernel
 *       closes it; the supervisor reads end of file and kills the whole session at once;</li>
 *   <li>baton renews a lease on that FIFO every sixth of the session timeout: "the command must
 *       be dead by D", where D is the servers' last certain word on the session (a {@code sync}
 *       round trip baton makes for it) plus the session timeout, less a margin. If D comes with
 *       no newer lease — baton stopped (SIGSTOP, Ctrl-Z), stalled or cut off — the supervisor
 *       sends SIGTERM a grace before D and SIGKILL at D: the command is dead before the servers
 *       can have expired the session and let anyone else hold;</li>
 *   <li>it exits only once nothing of the session runs any more: processes the command left
 *       behind get SIGTERM, then SIGKILL after the grace.</li>
 * </ul>
 * And baton does not take the supervisor's word for it: after the supervisor exits — or dies —
 * {@link #waitFor()} looks in {@code /proc} for any process of the session still running, kills
 * it, and returns only once there is none. So baton releases what it holds only then.
 *
 * <p>The supervisor cannot be left behind: it exits when the session is empty, and its watcher
 * of the FIFO goes when told to (never by a signal to a pid that may have been reused) or at end
 * of file. The command inherits baton's standard input, output and error as they are (the same
 * open files, at the same offsets).
 *
 * <p>Needs Linux ({@code /proc}) with bash, util-linux's {@code setsid} and coreutils' {@code mkfifo}.
 */
public final class GuardedChild {
    private static final String SCRIPT = loadScript();
    private static final Path UPTIME = Path.of("/proc/uptime");
    /** How often to look again whether processes of the session are gone, once killed. */
    private static final long SWEEP_PAUSE_MILLIS = 20;
    /** After how long processes that survive SIGKILL (stuck in the kernel) are reported. */
    private static final Duration STUCK = Duration.ofSeconds(5);

    /**
     * How long the command may run: baton renews it while it can show that its session is alive.
     * Methods are called from baton's lease thread.
     */
    public interface Lease {
        /** The time ({@link System#nanoTime()}) by which the command must be dead unless the lease is renewed. */
        long deadlineNanos();

        /** Asks, without waiting, for fresh proof that the session is alive (a round trip to the servers). */
        void renew();

        /** How often to renew and pass the deadline on to the supervisor. */
        Duration period();
    }

    /**
     * How the command ended.
     *
     * @param code the command's exit code (128+N if signal N ended it), or the supervisor's if it died
     * @param cause what ended it
     * @param detail why, for {@link Cause#LEASE_RAN_OUT} and {@link Cause#SUPERVISOR_DIED}; empty otherwise
     */
    public record Ended(int code, Cause cause, String detail) {
        /** What ended the command. */
        public enum Cause {
            /** It exited, or died of a signal baton's orders sent: {@code code} is what it exited with. */
            EXITED,
            /** The supervisor stopped it on its own, the lease having run out: {@code detail} says why. */
            LEASE_RAN_OUT,
            /** The supervisor died ({@code detail} says how); baton killed what was left of the session. */
            SUPERVISOR_DIED
        }
    }

    private final Process supervisor;
    private final Path dir;
    private final FileChannel orders;
    private final Object writing = new Object();
    private final ScheduledExecutorService leaseThread;
    private final PrintWriter err;

    private GuardedChild(Process supervisor, Path dir, FileChannel orders, ScheduledExecutorService leaseThread, PrintWriter err) {
        this.supervisor = supervisor;
        this.dir = dir;
        this.orders = orders;
        this.leaseThread = leaseThread;
        this.err = err;
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
     * Starts {@code command} with {@code env} added to baton's environment, under {@code lease}.
     * {@code grace} is the time between SIGTERM and SIGKILL when the supervisor stops the command
     * on its own: what it left behind when it exited, or everything when the lease runs out.
     * Problems later on (processes that will not die) are reported on {@code err}.
     */
    public static GuardedChild start(List<String> command, Map<String, String> env, Duration grace, Lease lease, PrintWriter err)
        throws IOException {
        Path dir = Files.createTempDirectory("baton-guard-", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        FileChannel orders = null;
        try {
            Path fifo = dir.resolve("orders");
            makeFifo(fifo);
            // read-write: opening a FIFO so does not wait for a reader; and this stays the only writer
            orders = FileChannel.open(fifo, StandardOpenOption.READ, StandardOpenOption.WRITE);
            List<String> argv = new ArrayList<>(List.of("setsid", "--wait", "bash", "-c", SCRIPT, "baton-guard", dir.toString(),
                Long.toString(ProcessHandle.current().pid()), Long.toString(grace.toMillis()),
                Long.toString(uptimeCentis(lease.deadlineNanos()))));
            argv.addAll(command);
            ProcessBuilder builder = new ProcessBuilder(argv).inheritIO();
            builder.environment().putAll(env);
            Process process = builder.start();
            ScheduledExecutorService leaseThread = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "baton-lease");
                t.setDaemon(true);
                return t;
            });
            GuardedChild child = new GuardedChild(process, dir, orders, leaseThread, err);
            long period = Math.max(1, lease.period().toMillis());
            leaseThread.scheduleWithFixedDelay(() -> child.renew(lease), 0, period, TimeUnit.MILLISECONDS);
            // the moment the supervisor is gone, its orders go too: nothing may wait on a FIFO nobody reads
            process.onExit().thenRun(child::closeOrders);
            return child;
        } catch (IOException | RuntimeException e) {
            if (orders != null) {
                orders.close();
            }
            deleteQuietly(dir);
            throw e;
        }
    }

    /**
     * Waits until the command and every process of its session have ended; then how it ended. The
     * exit code is 128+N if signal N ended the command.
     */
    public Ended waitFor() throws InterruptedException {
        int status = supervisor.waitFor();
        closeOrders();
        Optional<String> exit = readNote("exit");
        Optional<String> stopped = readNote("stopped");
        Optional<Long> session = readNote("session").map(Long::parseLong);
        if (session.isPresent()) {
            killWhatIsLeft(session.get());
        }
        deleteQuietly(dir);
        if (exit.isEmpty() && session.isPresent()) {
            return new Ended(status, Ended.Cause.SUPERVISOR_DIED, status > 128 ? "killed by signal " + (status - 128) : "exited " + status);
        }
        int code = exit.map(Integer::parseInt).orElse(status);
        return stopped.map(why -> new Ended(code, Ended.Cause.LEASE_RAN_OUT, why)).orElseGet(() -> new Ended(code, Ended.Cause.EXITED, ""));
    }

    /**
     * Stops the whole session: SIGTERM, then SIGKILL if anything of it still runs after
     * {@code grace}; a supervisor that does not answer is killed, and {@link #waitFor()} kills
     * what it leaves.
     */
    public void stop(Duration grace) throws InterruptedException {
        signal("TERM");
        if (!supervisor.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
            kill();
        }
    }

    /**
     * Kills the whole session at once (SIGKILL). The supervisor sends it: killing the supervisor
     * itself would leave the command running; one that has not exited 5 s later is killed, and
     * {@link #waitFor()} kills what it leaves.
     */
    public void kill() throws InterruptedException {
        signal("KILL");
        if (!supervisor.waitFor(5, TimeUnit.SECONDS)) {
            supervisor.destroyForcibly();
        }
    }

    /** Sends {@code signal} (TERM, INT, HUP, KILL) to every process of the command's session. */
    public void signal(String signal) {
        send(signal);
    }

    private void renew(Lease lease) {
        try {
            send("BEAT " + uptimeCentis(lease.deadlineNanos()));
            lease.renew();
        } catch (RuntimeException e) {
            // a failed renewal is a lease that runs out: the supervisor stops the command, and says so
        }
    }

    private void send(String order) {
        synchronized (writing) {
            if (!orders.isOpen()) {
                return; // the supervisor is gone
            }
            ByteBuffer line = ByteBuffer.wrap((order + "\n").getBytes(StandardCharsets.US_ASCII));
            try {
                while (line.hasRemaining()) {
                    orders.write(line);
                }
            } catch (IOException closed) {
                // closed while writing: the supervisor is gone
            }
        }
    }

    private void closeOrders() {
        leaseThread.shutdownNow();
        try {
            orders.close(); // not under `writing`: a write blocked on a full FIFO must not keep it open
        } catch (IOException e) {
            // nothing to do: it is closed either way
        }
    }

    /**
     * Kills every process of {@code session} that still runs, until none does. Normally there is
     * none: the supervisor exits only once its session is empty. But it may have died first (the
     * OOM killer, a kill -9), leaving the command running.
     */
    private void killWhatIsLeft(long session) throws InterruptedException {
        if (session == supervisor.pid() && Files.exists(Path.of("/proc", Long.toString(session)))) {
            // the supervisor was reaped, yet its pid is in use: by a new process, which can have it only
            // because no process of the old session was left
            return;
        }
        long stuckAt = System.nanoTime() + STUCK.toNanos();
        boolean told = false;
        for (List<Long> left = SessionProcesses.running(session); !left.isEmpty(); left = SessionProcesses.running(session)) {
            for (long pid : left) {
                // the handle first, then the check: the handle knows the process's start time and kills nothing
                // that took its pid since, so only a process seen in the session now is killed
                ProcessHandle.of(pid).filter(p -> SessionProcesses.isIn(pid, session)).ifPresent(ProcessHandle::destroyForcibly);
            }
            if (!told && System.nanoTime() - stuckAt > 0) {
                err.println("baton: processes " + left + " of the command still run after SIGKILL (stuck in the kernel?); "
                    + "holding on until they are gone");
                err.flush();
                told = true;
            }
            TimeUnit.MILLISECONDS.sleep(SWEEP_PAUSE_MILLIS);
        }
    }

    private Optional<String> readNote(String name) {
        try {
            String text = Files.readString(dir.resolve(name), StandardCharsets.UTF_8).trim();
            return text.isEmpty() ? Optional.empty() : Optional.of(text);
        } catch (IOException absent) {
            return Optional.empty();
        }
    }

    /**
     * {@code deadlineNanos} on the clock of {@code /proc/uptime}, in hundredths of a second,
     * which bash can read too; rounded down, so the supervisor acts early rather than late.
     */
    static long uptimeCentis(long deadlineNanos) {
        long now = System.nanoTime();
        String uptime;
        try {
            uptime = Files.readString(UPTIME, StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + UPTIME, e);
        }
        long centis = Long.parseLong(uptime.substring(0, uptime.indexOf(' ')).replace(".", ""));
        return centis + Math.floorDiv(deadlineNanos - now, 10_000_000L) - 1;
    }

    private static void makeFifo(Path fifo) throws IOException {
        Process mkfifo = new ProcessBuilder("mkfifo", "-m", "600", fifo.toString()).redirectErrorStream(true).start();
        try {
            String out = new String(mkfifo.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (mkfifo.waitFor() != 0) {
                throw new IOException("mkfifo " + fifo + " failed: " + out);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while making " + fifo, e);
        }
    }

    private static void deleteQuietly(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    // left in the temporary directory
                }
            });
        } catch (IOException e) {
            // gone already
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
