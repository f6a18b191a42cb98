package dev.baton.test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * A client process for {@link ClientProcessTest}: reports that it is ready, asks its parent to
 * echo a word, then ticks every 20 ms for as long as it runs. With the arguments
 * {@code crash <why>} it throws instead, as a worker that fails while it sets up; with
 * {@code crash-latin1 <why>} it first writes a line that is not UTF-8 to its log.
 */
final class EchoChild {
    private EchoChild() {
    }

    public static void main(String[] args) throws InterruptedException {
        ParentChannel parent = ParentChannel.open();
        System.out.println("not protocol: System.out goes to standard error once the channel is open");
        if (args.length > 0 && args[0].equals("crash-latin1")) { // as a JVM whose locale writes ISO-8859-1 would
            System.err.write("M\u00fcller's worker says: ".getBytes(StandardCharsets.ISO_8859_1), 0, 22);
            System.err.println();
            System.err.flush();
        }
        if (args.length > 0 && args[0].startsWith("crash")) { // a worker that fails while it sets up
            throw new IllegalStateException("the worker could not start: " + args[1]);
        }
        parent.report("ready", (Object[]) args);
        try {
            parent.report("answered", parent.ask(Duration.ofSeconds(30), "echo", "hello"));
        } catch (IllegalStateException e) {
            parent.report("ask-failed");
        }
        for (long n = 0; ; n++) {
            parent.report("tick", n);
            Thread.sleep(20);  // the child's own pace, not a test waiting for something
        }
    }
}
