package dev.baton.test;

import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The child's side of a {@link ClientProcess}: what a worker main class running in a child JVM
 * uses to tell its parent what it did ({@link #report}) and to ask it something
 * ({@link #ask}), over the process's standard output and input.
 *
 * <p>{@link #open()} claims the real standard output for the protocol and points
 * {@code System.out} at standard error, so nothing else printed in the child can break a line.
 * Every message is stamped with {@link Instant#now()} when it is sent (see {@link ClientProcess}
 * for why those stamps compare across JVMs). When standard input reaches end-of-file — the
 * parent closed it, or died — the child halts at once: a worker never outlives its test.
 *
 * <pre>{@code
 * public static void main(String[] args) throws Exception {
 *     ParentChannel parent = ParentChannel.open();
 *     ... acquire ...
 *     parent.report("acquired", lease.fencingToken());
 *     String verdict = parent.ask(Duration.ofSeconds(30), "write", lease.fencingToken());
 * }
 * }</pre>
 *
 * <p>Thread-safe: any thread may report and ask. Fields are single words (no white space).
 */
public final class ParentChannel {
    private static ParentChannel opened;

    private final PrintStream out;
    private final AtomicLong ids = new AtomicLong();
    private final Map<Long, CompletableFuture<String>> pending = new ConcurrentHashMap<>();

    private ParentChannel(PrintStream out) {
        this.out = out;
    }

    /**
     * Opens the channel to the parent, once per JVM: the first call takes over standard output
     * and starts the thread that reads the parent's answers (and halts the JVM at end-of-input).
     *
     * @return this JVM's channel; later calls return the same one
     */
    public static synchronized ParentChannel open() {
        if (opened == null) {
            PrintStream protocol = new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
            System.setOut(System.err);
            opened = new ParentChannel(protocol);
            Thread reader = new Thread(opened::readAnswers, "baton-parent-channel");
            reader.setDaemon(true);
            reader.start();
        }
        return opened;
    }

    /**
     * Tells the parent that something happened now; the parent's {@code onMessage} hears it.
     *
     * @param kind what happened, one word ("acquired")
     * @param fields the words that go with it, each written with {@link String#valueOf(Object)}
     * @throws IllegalArgumentException if {@code kind} or a field's text is empty or holds white
     *     space (nothing is sent)
     */
    public void report(String kind, Object... fields) {
        send(ProcessLines.REPORT + " " + ProcessLines.micros(Instant.now()) + " " + ProcessLines.words(kind, fields));
    }

    /**
     * Asks the parent {@code kind} with {@code fields} and waits for its answer. The wait counts
     * the time this JVM spends frozen: give it a timeout well past any pause a test injects.
     *
     * @param timeout how long to wait for the answer
     * @param kind what is asked, one word ("write")
     * @param fields the words that go with it, each written with {@link String#valueOf(Object)}
     * @return the parent's {@code onRequest} answer, as one line (empty if the answer was empty)
     * @throws IllegalArgumentException if {@code kind} or a field's text is empty or holds white
     *     space (nothing is sent)
     * @throws IllegalStateException if the parent's handler failed, or no answer came in time
     * @throws InterruptedException if interrupted while waiting for the answer
     */
    public String ask(Duration timeout, String kind, Object... fields) throws InterruptedException {
        Objects.requireNonNull(timeout, "timeout");
        String words = ProcessLines.words(kind, fields);
        long id = ids.incrementAndGet();
        CompletableFuture<String> answer = new CompletableFuture<>();
        pending.put(id, answer);
        try {
            send(ProcessLines.REQUEST + " " + id + " " + ProcessLines.micros(Instant.now()) + " " + words);
            return answer.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException("the parent could not answer \"" + words + "\": " + e.getCause().getMessage(), e);
        } catch (TimeoutException e) {
            throw new IllegalStateException("the parent did not answer \"" + words + "\" within " + timeout, e);
        } finally {
            pending.remove(id);
        }
    }

    private void send(String line) {
        synchronized (out) {
            out.print(line + "\n");
            out.flush();
        }
    }

    private void readAnswers() {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                answered(line);
            }
        } catch (IOException e) {
            // the parent's end of the pipe is gone: the same as end-of-file
        }
        // the parent closed our input or died: a client process must not outlive its test
        Runtime.getRuntime().halt(0);
    }

    private void answered(String line) {
        boolean failed = line.startsWith(ProcessLines.FAILURE + " ");
        if (!failed && !line.startsWith(ProcessLines.ANSWER + " ")) {
            return;
        }
        String rest = line.substring(line.indexOf(' ') + 1);
        int space = rest.indexOf(' ');
        long id = Long.parseLong(space < 0 ? rest : rest.substring(0, space));
        String text = space < 0 ? "" : rest.substring(space + 1);
        CompletableFuture<String> answer = pending.get(id);
        if (answer != null) {
            if (failed) {
                answer.completeExceptionally(new IllegalStateException(text));
            } else {
                answer.complete(text);
            }
        }
    }
}
