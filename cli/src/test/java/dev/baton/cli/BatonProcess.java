package dev.baton.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** The real {@code baton} command as a child process: this build's classes, a fresh JVM, its own output files. */
final class BatonProcess implements AutoCloseable {
    private final Process process;
    final Path out;
    final Path err;

    private BatonProcess(Process process, Path out, Path err) {
        this.process = process;
        this.out = out;
        this.err = err;
    }

    static BatonProcess start(Path dir, Map<String, String> env, String... args) throws IOException {
        return startVia(dir, env, List.of(), args);
    }

    /**
     * Starts baton through {@code wrapper}, a command that ends by running the arguments it is
     * given ({@code sh -c '{ read h; exec "$@"; } < file' sh}): baton is then started the way
     * that shell would start it, with what it set up (standard input, for one).
     */
    static BatonProcess startVia(Path dir, Map<String, String> env, List<String> wrapper, String... args) throws IOException {
        List<String> command = new ArrayList<>(wrapper);
        command.addAll(JVM.options());
        command.add(Baton.class.getName());
        command.addAll(List.of(args));
        Files.createDirectories(dir);
        Path out = Files.createTempFile(dir, "baton-", ".out");
        Path err = Files.createTempFile(dir, "baton-", ".err");
        ProcessBuilder builder = new ProcessBuilder(command)
            .redirectOutput(out.toFile()).redirectError(err.toFile()).redirectInput(ProcessBuilder.Redirect.PIPE);
        builder.environment().remove("BATON_CONNECT"); // what the test gives, not what the shell that ran the build had
        builder.environment().putAll(env);
        return new BatonProcess(builder.start(), out, err);
    }

    /**
     * How baton's JVMs start: C1 only, the serial collector, a small heap, this build's classes;
     * and, where it can be built, a class-data-sharing archive of what a baton run loads. The
     * tests start well over a hundred baton JVMs, and one spends most of its life loading about
     * 3,800 classes: with the archive, a {@code baton doctor} that finds nothing listening took
     * about 0.75 s of CPU and 1.1 s instead of 1.15 s and 1.3-1.8 s (2026-11-27, this machine).
     * The archive is this test JVM's own (built once, in a temporary folder deleted at exit, by
     * one training run of {@code baton doctor} against a port where nothing listens), so it always
     * matches the classes under test. A JVM can only archive classes from jars: baton's own
     * classes go into a jar first, and the test classes, which baton does not use, are left out.
     * Anything else as a folder on the class path (a build without {@code package}), or a
     * training run that fails, and baton runs without the archive, as before. A JVM that cannot
     * use an archive runs without it and, with {@code -Xlog:cds*=off}, says nothing about it on
     * the output the tests read.
     */
    private static final class JVM {
        private static final List<String> OPTIONS = build();

        static List<String> options() {
            return OPTIONS;
        }

        private static List<String> build() {
            List<String> base = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx128m", "-Dlogback.configurationFile=baton-logback.xml");
            String classPath = System.getProperty("java.class.path");
            List<String> plain = new ArrayList<>(base);
            plain.add("-cp");
            plain.add(classPath);
            try {
                Path dir = Files.createTempDirectory("baton-cds-");
                dir.toFile().deleteOnExit();
                List<String> entries = new ArrayList<>();
                Path ownClasses = Path.of(Baton.class.getProtectionDomain().getCodeSource().getLocation().toURI());
                Path testClasses = Path.of(BatonProcess.class.getProtectionDomain().getCodeSource().getLocation().toURI());
                for (String entry : classPath.split(java.io.File.pathSeparator)) {
                    Path p = Path.of(entry);
                    if (p.equals(testClasses)) {
                        continue;
                    }
                    if (p.equals(ownClasses) && Files.isDirectory(p)) {
                        Path jar = dir.resolve("baton-classes.jar");
                        jar(p, jar);
                        jar.toFile().deleteOnExit();
                        entries.add(jar.toString());
                    } else if (Files.isDirectory(p)) {
                        return plain; // a folder of classes cannot go into an archive
                    } else {
                        entries.add(entry);
                    }
                }
                String shared = String.join(java.io.File.pathSeparator, entries);
                Path archive = dir.resolve("baton.jsa");
                List<String> training = new ArrayList<>(base);
                training.addAll(List.of("-Xlog:cds*=off", "-XX:ArchiveClassesAtExit=" + archive, "-cp", shared,
                    Baton.class.getName(), "doctor"));
                ProcessBuilder builder = new ProcessBuilder(training).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.DISCARD).redirectInput(ProcessBuilder.Redirect.PIPE);
                // port 1: nothing listens there, so the run loads the client and gives up at once
                builder.environment().put("BATON_CONNECT", "127.0.0.1:1");
                Process trainer = builder.start();
                trainer.getOutputStream().close();
                if (!trainer.waitFor(60, TimeUnit.SECONDS)) {
                    trainer.destroyForcibly();
                    return plain;
                }
                archive.toFile().deleteOnExit();
                if (!Files.isRegularFile(archive)) {
                    return plain;
                }
                List<String> withArchive = new ArrayList<>(base);
                withArchive.addAll(List.of("-Xlog:cds*=off", "-XX:SharedArchiveFile=" + archive, "-cp", shared));
                return List.copyOf(withArchive);
            } catch (IOException | java.net.URISyntaxException | RuntimeException e) {
                return plain;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return plain;
            }
        }

        /** Packs the class folder {@code classes} into {@code jar}. */
        private static void jar(Path classes, Path jar) throws IOException {
            try (var out = new java.util.jar.JarOutputStream(Files.newOutputStream(jar));
                 var files = Files.walk(classes)) {
                for (Path f : (Iterable<Path>) files.filter(Files::isRegularFile).sorted()::iterator) {
                    out.putNextEntry(new java.util.jar.JarEntry(classes.relativize(f).toString().replace('\\', '/')));
                    Files.copy(f, out);
                    out.closeEntry();
                }
            }
        }
    }

    /** Waits for the exit code; fails the test if it takes longer than {@code timeout}. */
    int exitCode(Duration timeout) throws InterruptedException, IOException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("baton did not exit within " + timeout + "; stderr: " + stderr());
        }
        return process.exitValue();
    }

    /** Runs baton to its end and closes it: the exit code (its output stays readable). */
    int finish(Duration timeout) throws InterruptedException, IOException {
        try (this) {
            return exitCode(timeout);
        }
    }

    /** Writes {@code text} (UTF-8) to baton's standard input and closes it. */
    void stdin(String text) throws IOException {
        try (var in = process.getOutputStream()) {
            in.write(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
    }

    boolean isAlive() {
        return process.isAlive();
    }

    long pid() {
        return process.pid();
    }

    /** Every process below baton right now: its command's supervisor, the command, what the command started. */
    List<ProcessHandle> descendants() {
        return process.descendants().toList();
    }

    /** The supervisor between baton and its command: baton's only child while the command runs. */
    ProcessHandle supervisor() {
        List<ProcessHandle> children = process.children().toList();
        if (children.size() != 1) {
            throw new AssertionError("baton should have exactly one child (its command's supervisor), has " + children);
        }
        return children.get(0);
    }

    /** Kills baton with SIGKILL, as the OOM killer would: it gets no chance to clean up. */
    void kill() throws InterruptedException {
        process.destroyForcibly().waitFor();
    }

    /**
     * Whether {@code process} still runs: whether any of its threads does. A process that died
     * but was not yet reaped (a zombie) runs no more, though {@link ProcessHandle#isAlive()} may
     * still say it is alive; but a process whose main thread ended while others go on shows as a
     * zombie too, and runs.
     */
    static boolean running(ProcessHandle process) {
        Path tasks = Path.of("/proc", Long.toString(process.pid()), "task");
        try (var threads = Files.list(tasks)) {
            return threads.anyMatch(thread -> {
                try {
                    String stat = Files.readString(thread.resolve("stat"));
                    String state = stat.substring(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
                    return !state.equals("Z") && !state.equals("X");
                } catch (IOException gone) {
                    return false;
                }
            });
        } catch (IOException | java.io.UncheckedIOException gone) {
            return false;
        }
    }

    /**
     * Whether this JVM was started with SIGINT ignored, as every job a non-interactive shell puts in
     * the background is (POSIX). baton inherits that disposition and the JVM cannot undo it, so a
     * SIGINT sent to baton is then dropped by the kernel: Ctrl-C behaviour cannot be tested here.
     */
    static boolean sigintIgnoredHere() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("SigIgn:")) {
                long ignored = Long.parseLong(line.substring("SigIgn:".length()).trim(), 16);
                return (ignored & (1L << (2 - 1))) != 0;   // bit n-1 stands for signal n; SIGINT is 2
            }
        }
        return false;
    }

    /** Sends {@code signal} ("INT", "TERM", "STOP", "CONT") to baton itself. */
    void signal(String signal) throws IOException, InterruptedException {
        new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).start().waitFor();
    }

    String stdout() throws IOException {
        return Files.readString(out, StandardCharsets.UTF_8);
    }

    String stderr() throws IOException {
        return Files.readString(err, StandardCharsets.UTF_8);
    }

    /**
     * Stops baton the way an operator would (SIGTERM: it stops its command and gives its lock or
     * leadership back), then kills whatever is left. The command runs in a session of its own, so
     * killing baton alone would leave it running after the test: it is killed by process too.
     */
    @Override
    public void close() {
        List<ProcessHandle> commands = process.descendants().toList();
        if (process.isAlive()) {
            try {
                signal("CONT"); // a test may have stopped it
                signal("TERM");
                process.waitFor(10, TimeUnit.SECONDS);
            } catch (IOException e) {
                // no kill command: fall through to the forcible kill
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        process.destroyForcibly();
        commands.forEach(ProcessHandle::destroyForcibly);
    }
}
