package dev.baton.test;

import dev.baton.server.ChildJvm;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A client in a JVM of its own: a worker main class, given by the test, started as a child
 * process that the test can freeze with SIGSTOP, thaw with SIGCONT, kill with SIGKILL and start
 * again. These are the faults of a whole process — a long garbage-collection pause, a frozen
 * virtual machine, a crash — that no proxy in front of a client can imitate: a frozen process
 * runs nothing at all, so when it wakes it still believes whatever it believed before.
 *
 * <p><b>Talking to the worker.</b> The worker opens a {@link ParentChannel} and reports what it
 * does ("acquired 4294967302", "released", ...) or asks the parent something ("write 42") on
 * its standard output; the parent hands every report to {@code onMessage} and every request to
 * {@code onRequest}, whose return value goes back as the answer (see {@code ProcessLines} for
 * the lines). Both run on this process's reader thread, one message at a time, in the order the
 * child sent them; messages of different processes arrive on different threads. The parent also
 * tells {@code onMessage} what it did to the process: {@link #STARTED}, {@link #PAUSED},
 * {@link #RESUMED}, {@link #KILLED}, and {@link #EXITED} when the child ended by itself.
 *
 * <p><b>Time.</b> Every message carries the wall-clock time at which it was stamped —
 * {@link Instant#now()}, in the child when it sent a report or request, in the parent for the
 * lifecycle messages — to the microsecond. Such stamps compare across the JVMs because they all
 * run on one machine and read the one kernel clock ({@code CLOCK_REALTIME}): there is no skew
 * between processes to correct for, unlike between machines. {@link System#nanoTime()} would
 * not do: its origin is private to each JVM. Order messages by their time, never by their
 * arrival: lines of different children, and the parent's own marks, arrive in any order. The
 * stamps do what a history needs: a worker stamps "acquired" after its acquisition returned and
 * "released" before it gives the lock back, so a handover is stamped release-then-acquire with
 * at least a server round trip between. {@link #PAUSED} is stamped once the kernel reports the
 * child stopped, and {@link #RESUMED} before SIGCONT is sent, so nothing the child stamps falls
 * inside the pause. (A step of the clock by NTP during a run could reorder stamps around it; a
 * test machine's clock is slewed, not stepped, in practice.)
 *
 * <p><b>Lifetime.</b> {@link #close()} kills the child. The child also halts when its standard
 * input reaches end-of-file, so if the test JVM dies, even by SIGKILL, its children follow — a
 * child frozen at that moment follows when something thaws it — and a shutdown hook kills every
 * child still running when the test JVM exits (see {@link ChildJvm}). The child runs on the
 * test's class path; its standard error, and any line it prints that is not protocol, go to a log
 * file ({@code log(Path)}, else a temporary file deleted by {@code close()}).
 *
 * <p><b>Platforms.</b> Linux and other Unix-like systems only: pausing sends SIGSTOP and
 * SIGCONT with {@code kill}. A test should start with
 * {@code assumeTrue(ClientProcess.supported(), ...)} so that elsewhere it is skipped, saying why.
 *
 * <pre>{@code
 * try (ClientProcess worker = ClientProcess.builder("worker-1", MutexWorker.class)
 *          .args(ensemble.connectString(), "/locks/a")
 *          .onMessage(m -> history.add(m))
 *          .onRequest(m -> store.write(m.longField(0)) ? "accepted" : "refused")
 *          .start()) {
 *     worker.pause();       // SIGSTOP: the whole JVM freezes
 *     ...
 *     worker.resume();      // SIGCONT: it carries on as if nothing happened
 *     worker.kill();        // SIGKILL
 *     worker.restart();     // a fresh JVM, same main class and arguments
 * }
 * }</pre>
 */
public final class ClientProcess implements AutoCloseable {
    /** The parent started the child (fields: its pid). */
    public static final String STARTED = "started";
    /** The child is frozen (SIGSTOP), stamped once the kernel reported it stopped. */
    public static final String PAUSED = "paused";
    /** The child is about to be thawed (SIGCONT), stamped before the signal. */
    public static final String RESUMED = "resumed";
    /** The child was killed with SIGKILL, stamped once it had exited. */
    public static final String KILLED = "killed";
    /** The child ended by itself (fields: its exit code). */
    public static final String EXITED = "exited";
    /** How much of the log a crashed child's message shows. */
    private static final int LOG_TAIL_LINES = 30;
    /** How much of the end of the log is read for those lines. */
    private static final int LOG_TAIL_BYTES = 64 * 1024;

    /**
     * One message from or about a client process.
     *
     * @param process the process's name
     * @param time when it was stamped (see the class comment on comparing times across JVMs)
     * @param kind what happened ("acquired", {@link #PAUSED}, ...)
     * @param fields the words that go with it
     */
    public record Message(String process, Instant time, String kind, List<String> fields) {
        /**
         * Checks the parts and copies {@code fields}, so that a message never changes.
         *
         * @param process the process's name
         * @param time when it was stamped
         * @param kind what happened
         * @param fields the words that go with it
         * @throws NullPointerException if any part, or one of the fields, is null
         */
        public Message {
            Objects.requireNonNull(process, "process");
            Objects.requireNonNull(time, "time");
            Objects.requireNonNull(kind, "kind");
            fields = List.copyOf(fields);
        }

        /**
         * One of the words that go with the message.
         *
         * @param i the field's position, from 0
         * @return field {@code i}, as the child sent it
         * @throws IllegalArgumentException if the message has no more than {@code i} fields
         */
        public String field(int i) {
            if (i >= fields.size()) {
                throw new IllegalArgumentException(this + " has no field " + i);
            }
            return fields.get(i);
        }

        /**
         * One of the words that go with the message, read as a number (a fencing token, a value).
         *
         * @param i the field's position, from 0
         * @return field {@code i} parsed as a decimal {@code long}
         * @throws IllegalArgumentException if the message has no more than {@code i} fields
         * @throws NumberFormatException if that field is not a decimal {@code long}
         */
        public long longField(int i) {
            return Long.parseLong(field(i));
        }

        @Override
        public String toString() {
            return process + " " + kind + (fields.isEmpty() ? "" : " " + String.join(" ", fields)) + " @" + time;
        }
    }

    private final String name;
    private final String mainClass;
    private final List<String> args;
    private final String heap;
    private final Consumer<Message> onMessage;
    private final Function<Message, String> onRequest;
    private final Path log;
    private final boolean deleteLog;
    private final List<RuntimeException> handlerFailures = new CopyOnWriteArrayList<>();
    /** Why children ended by themselves with a non-zero status, with the end of the log: close() throws them. */
    private final List<String> crashes = new CopyOnWriteArrayList<>();
    private final Duration handlerTimeout;
    private ChildJvm jvm;
    private OutputStream toChild;
    private Thread reader;
    /** The current child was killed by us: its end is not news. */
    private volatile boolean killing;

    private ClientProcess(Builder b) throws IOException {
        this.name = b.name;
        this.mainClass = b.mainClass;
        this.args = List.copyOf(b.args);
        this.heap = b.heap;
        this.onMessage = b.onMessage;
        this.onRequest = b.onRequest;
        this.deleteLog = b.log == null;
        this.handlerTimeout = b.handlerTimeout;
        this.log = b.log != null ? b.log : Files.createTempFile("baton-" + name + "-", ".log");
        if (log.getParent() != null) {
            Files.createDirectories(log.getParent());
        }
    }

    /**
     * Starts configuring a client process. Nothing is started until {@link Builder#start()}.
     *
     * @param name what to call it in messages, logs and thread names
     * @param main the worker: a class with a {@code main} method, on the test's class path, that
     *     talks to the parent through a {@link ParentChannel}
     * @return a builder with the defaults described on its setters
     * @throws NullPointerException if {@code name} or {@code main} is null
     */
    public static Builder builder(String name, Class<?> main) {
        return new Builder(name, main.getName());
    }

    /**
     * Whether this platform can run client processes (it needs SIGSTOP and SIGCONT).
     *
     * @return {@code false} on Windows, {@code true} elsewhere (see {@link ChildJvm#signalsSupported()})
     */
    public static boolean supported() {
        return ChildJvm.signalsSupported();
    }

    /**
     * The name given to {@link #builder}.
     *
     * @return the name its messages carry as {@link Message#process()}
     */
    public String name() {
        return name;
    }

    /**
     * Where the child's standard error and non-protocol output go.
     *
     * @return the file given to {@link Builder#log(Path)}, else the temporary file that
     *     {@link #close()} deletes
     */
    public Path log() {
        return log;
    }

    /**
     * The current child's process id; a restart gives a new one.
     *
     * @return the operating-system pid of the running child
     * @throws IllegalStateException if no child is running
     */
    public synchronized long pid() {
        return running("pid").pid();
    }

    /**
     * Whether a child is running now. A paused child is running.
     *
     * @return {@code true} if the current child has not exited
     */
    public synchronized boolean isAlive() {
        return jvm != null && jvm.isAlive();
    }

    /**
     * Whether the child is frozen by {@link #pause()}.
     *
     * @return {@code true} if it was paused, not resumed since, and is still alive
     */
    public synchronized boolean isPaused() {
        return jvm != null && jvm.isPaused();
    }

    /**
     * Freezes the child with SIGSTOP and returns once it is stopped; {@link #PAUSED} is stamped
     * then.
     *
     * @throws IllegalStateException if it is not running, or could not be stopped
     * @throws UnsupportedOperationException on a platform without SIGSTOP (see {@link #supported()})
     */
    public synchronized void pause() {
        running("pause").pause();
        tell(PAUSED);
    }

    /**
     * Thaws the child with SIGCONT, after stamping {@link #RESUMED}; nothing if it is not paused.
     *
     * @throws IllegalStateException if the signal could not be sent
     */
    public synchronized void resume() {
        if (jvm != null && jvm.isPaused()) {
            tell(RESUMED);
            jvm.resume();
        }
    }

    /**
     * Kills the child with SIGKILL (paused or not) and returns once it has exited; {@link #KILLED}
     * is stamped then. Nothing if it is not running.
     *
     * @throws IllegalStateException if it is still alive 10 s after the signal
     * @throws InterruptedException if interrupted while waiting for it to exit (the signal has been
     *     sent; {@link #KILLED} has not been told)
     */
    public synchronized void kill() throws InterruptedException {
        if (jvm == null || !jvm.isAlive()) {
            return;
        }
        killing = true;
        jvm.kill();
        tell(KILLED);
    }

    /**
     * Starts a fresh child — same main class and arguments — killing the current one first if it
     * runs, and waiting until all the old child's output has been handled, so that no message of
     * the old child follows {@link #STARTED} of the new one.
     *
     * @throws IllegalStateException if the current child outlives SIGKILL by 10 s, or a handler of
     *     its output has not returned within {@link Builder#handlerTimeout} after it ended
     * @throws UncheckedIOException if the new child cannot be started
     * @throws InterruptedException if interrupted while waiting for the old child to end
     */
    public synchronized void restart() throws InterruptedException {
        kill();
        awaitReader();
        launch();
    }

    /**
     * Kills the child, waits until all its output has been handled, and deletes a temporary log.
     *
     * @throws IllegalStateException if a handler of the child's output has not returned within
     *     {@link Builder#handlerTimeout} after the child ended (a handler that blocks), or
     *     {@code onMessage} or {@code onRequest} threw (the failure is
     *     the cause), or a line from the child was malformed: a test must not pass over a
     *     handler that broke; or a child ended by itself with a non-zero status (an exception
     *     thrown out of its {@code main}), the message giving the status and the last lines of
     *     its log, so that a test that timed out waiting for a crashed worker's reports shows the
     *     crash (as a suppressed exception of a try-with-resources)
     * @throws InterruptedException if interrupted while waiting for the child to end or its output
     *     to be handled
     */
    @Override
    public synchronized void close() throws InterruptedException {
        kill();
        try {
            awaitReader();
        } finally {
            if (deleteLog) {
                try {
                    Files.deleteIfExists(log);
                } catch (IOException e) {
                    // a temporary file: the OS cleans its temp folder
                }
            }
        }
        if (!handlerFailures.isEmpty()) {
            IllegalStateException e = new IllegalStateException("a handler of client process " + name + " failed "
                + handlerFailures.size() + " time(s); the first failure is the cause", handlerFailures.get(0));
            handlerFailures.stream().skip(1).limit(5).forEach(e::addSuppressed);
            crashes.forEach(crash -> e.addSuppressed(new IllegalStateException(crash)));
            throw e;
        }
        if (!crashes.isEmpty()) {
            IllegalStateException e = new IllegalStateException(crashes.get(0));
            crashes.stream().skip(1).limit(5).forEach(crash -> e.addSuppressed(new IllegalStateException(crash)));
            throw e;
        }
    }

    /** Closes the child's standard input, as the death of this JVM would (for tests of that). */
    synchronized void closeInput() throws IOException {
        running("closeInput").process().getOutputStream().close();
    }

    private ChildJvm running(String operation) {
        if (jvm == null || !jvm.isAlive()) {
            throw new IllegalStateException(operation + ": client process " + name + " is not running");
        }
        return jvm;
    }

    private void launch() {
        try {
            jvm = ChildJvm.builder(mainClass).heap(heap).args(args)
                .error(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start client process " + name, e);
        }
        killing = false;
        toChild = jvm.process().getOutputStream();
        ChildJvm child = jvm;
        OutputStream answers = toChild;
        reader = new Thread(() -> read(child, answers), "baton-client-process-" + name);
        reader.setDaemon(true);
        reader.start();
        tell(STARTED, Long.toString(child.pid()));
    }

    /**
     * Waits for the reader thread, which ends with the child's output once every line has been
     * handled; a handler that does not return keeps it, and that wait is bounded by
     * {@link Builder#handlerTimeout}.
     */
    private void awaitReader() throws InterruptedException {
        if (reader == null) {
            return;
        }
        Thread waitedFor = reader;
        waitedFor.join(handlerTimeout.toMillis());
        reader = null;
        if (waitedFor.isAlive()) {
            Throwable where = new Throwable("where the reader thread " + waitedFor.getName() + " is now");
            where.setStackTrace(waitedFor.getStackTrace());
            throw new IllegalStateException("client process " + name + ": its output is still being handled " + handlerTimeout
                + " after the child ended, so an onMessage or onRequest handler has not returned (it runs on the reader thread,"
                + " and must not block); the cause shows where it is", where);
        }
    }

    private void tell(String kind, String... fields) {
        deliver(new Message(name, Instant.now(), kind, List.of(fields)));
    }

    private void deliver(Message message) {
        try {
            onMessage.accept(message);
        } catch (RuntimeException e) {
            handlerFailures.add(e);
        }
    }

    /** The reader thread of one child: every line it prints, until it ends. */
    private void read(ChildJvm child, OutputStream answers) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(child.process().getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                try {
                    handle(line, answers);
                } catch (RuntimeException malformed) {
                    // a protocol line that does not parse: a bug in the worker, which close() reports
                    handlerFailures.add(new IllegalStateException("malformed line from " + name + ": " + line, malformed));
                }
            }
        } catch (IOException e) {
            // the pipe broke: the child is gone, which its exit below reports
        }
        if (!killing) {
            try {
                int status = child.process().waitFor();
                Instant ended = Instant.now();
                if (status != 0) {
                    // a crashed worker: a test waiting for its reports would only time out, so close() says why
                    crashes.add("client process " + name + " exited by itself with status " + status + " at " + ended
                        + "; the end of its log " + log + ":\n" + tailOfLog());
                }
                deliver(new Message(name, ended, EXITED, List.of(Integer.toString(status))));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void handle(String line, OutputStream answers) {
        int space = line.indexOf(' ');
        String prefix = space < 0 ? line : line.substring(0, space);
        if (prefix.equals(ProcessLines.REPORT)) {
            List<String> words = ProcessLines.split(line.substring(space + 1));
            deliver(message(words));
        } else if (prefix.equals(ProcessLines.REQUEST)) {
            List<String> words = ProcessLines.split(line.substring(space + 1));
            answer(words.get(0), message(words.subList(1, words.size())), answers);
        } else {
            appendToLog("[stdout] " + line);
        }
    }

    private Message message(List<String> words) {
        return new Message(name, ProcessLines.instant(Long.parseLong(words.get(0))), words.get(1), words.subList(2, words.size()));
    }

    private void answer(String id, Message request, OutputStream answers) {
        String reply;
        try {
            if (onRequest == null) {
                throw new IllegalStateException("client process " + name + " has no request handler for " + request);
            }
            String answer = Objects.requireNonNull(onRequest.apply(request), "the request handler's answer");
            reply = ProcessLines.ANSWER + " " + id + " " + answer.replace('\n', ' ');
        } catch (RuntimeException e) {
            handlerFailures.add(e);
            reply = ProcessLines.FAILURE + " " + id + " " + String.valueOf(e).replace('\n', ' ');
        }
        try {
            answers.write((reply + "\n").getBytes(StandardCharsets.UTF_8));
            answers.flush();
        } catch (IOException childGone) {
            // killed while asking: nobody is left to hear the answer
        }
    }

    /**
     * The last lines of the log, for a message about a child that ended by itself: read from its
     * last {@link #LOG_TAIL_BYTES} only (a long run's log can be large), and decoded leniently, since
     * a child in another locale may write bytes that are not UTF-8 (which must not cost the tail).
     */
    private String tailOfLog() {
        try (SeekableByteChannel in = Files.newByteChannel(log)) {
            long from = Math.max(0, in.size() - LOG_TAIL_BYTES);
            ByteBuffer tail = ByteBuffer.allocate((int) (in.size() - from));
            in.position(from);
            while (tail.hasRemaining() && in.read(tail) >= 0) {
                // read to the end of the tail
            }
            List<String> lines = new String(tail.array(), 0, tail.position(), StandardCharsets.UTF_8).lines().toList();
            if (from > 0 && !lines.isEmpty()) {
                lines = lines.subList(1, lines.size()); // the first line is cut
            }
            return String.join("\n", lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size()));
        } catch (IOException e) {
            return "(unreadable: " + e + ")";
        }
    }

    private void appendToLog(String line) {
        try {
            Files.writeString(log, line + System.lineSeparator(), StandardCharsets.UTF_8,
                java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
        } catch (IOException e) {
            // the log is for people; losing a line of it must not break the test
        }
    }

    @Override
    public String toString() {
        return "client process " + name + " (" + mainClass + ")";
    }

    /** Configures a {@link ClientProcess}. */
    public static final class Builder {
        private final String name;
        private final String mainClass;
        private final List<String> args = new ArrayList<>();
        private String heap = "64m";
        private Consumer<Message> onMessage = m -> { };
        private Function<Message, String> onRequest;
        private Path log;
        private Duration handlerTimeout = Duration.ofSeconds(30);

        private Builder(String name, String mainClass) {
            this.name = Objects.requireNonNull(name, "name");
            this.mainClass = mainClass;
        }

        /**
         * Appends arguments to the main class, after any added before; a restart passes the same.
         *
         * @param arguments the arguments, in order
         * @return this builder
         * @throws NullPointerException if one of the arguments is null
         */
        public Builder args(String... arguments) {
            for (String a : arguments) {
                args.add(Objects.requireNonNull(a, "argument"));
            }
            return this;
        }

        /**
         * Sets the child's maximum heap. Default 64m.
         *
         * @param size the size as {@code -Xmx} takes it, such as {@code "128m"}
         * @return this builder
         * @throws NullPointerException if {@code size} is null
         */
        public Builder heap(String size) {
            this.heap = Objects.requireNonNull(size, "size");
            return this;
        }

        /**
         * Sets what hears every report of the child and every lifecycle message. Default: nothing
         * hears them.
         *
         * @param listener called with each message: the child's reports and {@link ClientProcess#EXITED} on
         *     this process's reader thread, the other lifecycle messages on the thread that called
         *     {@code pause()}, {@code kill()} and so on, so a listener shared by several processes
         *     must be thread-safe (see the class comment). If it throws,
         *     {@link ClientProcess#close()} reports it
         * @return this builder
         * @throws NullPointerException if {@code listener} is null
         */
        public Builder onMessage(Consumer<Message> listener) {
            this.onMessage = Objects.requireNonNull(listener, "onMessage");
            return this;
        }

        /**
         * Sets what answers the child's requests. Without one, every request fails: the child is
         * told so and {@link ClientProcess#close()} reports it.
         *
         * @param handler called on this process's reader thread with each request; returns the
         *     answer, one line of text (line breaks become spaces); if it throws or returns null,
         *     the child gets a failure and {@link ClientProcess#close()} reports it
         * @return this builder
         * @throws NullPointerException if {@code handler} is null
         */
        public Builder onRequest(Function<Message, String> handler) {
            this.onRequest = Objects.requireNonNull(handler, "onRequest");
            return this;
        }

        /**
         * Sets where the child's standard error and non-protocol output go. Default: a temporary
         * file, deleted by {@link ClientProcess#close()}.
         *
         * @param file the log file, appended to across restarts and kept after close; its folder
         *     is created if missing
         * @return this builder
         * @throws NullPointerException if {@code file} is null
         */
        public Builder log(Path file) {
            this.log = Objects.requireNonNull(file, "file");
            return this;
        }

        /**
         * Sets how long {@link ClientProcess#close()} and {@link ClientProcess#restart()} wait, once
         * the child has ended, for the handlers to finish with its last output. A handler that
         * blocks (it runs on the reader thread) then fails the close with an
         * {@link IllegalStateException} showing where it is, instead of hanging the test. Default 30 s.
         *
         * @param timeout the wait, more than zero
         * @return this builder
         * @throws IllegalArgumentException if {@code timeout} is zero or negative
         */
        public Builder handlerTimeout(Duration timeout) {
            Objects.requireNonNull(timeout, "handlerTimeout");
            if (timeout.isZero() || timeout.isNegative()) {
                throw new IllegalArgumentException("handlerTimeout must be more than zero, was " + timeout);
            }
            this.handlerTimeout = timeout;
            return this;
        }

        /**
         * Starts the child and stamps {@link ClientProcess#STARTED}; it runs until
         * {@link ClientProcess#close()} kills it or it ends by itself.
         *
         * @return the running client process
         * @throws IOException if the log file or its folder cannot be created
         * @throws UncheckedIOException if the child JVM cannot be started
         */
        public ClientProcess start() throws IOException {
            ClientProcess process = new ClientProcess(this);
            synchronized (process) {
                process.launch();
            }
            return process;
        }
    }
}
