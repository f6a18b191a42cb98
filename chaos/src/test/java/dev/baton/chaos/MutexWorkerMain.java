package dev.baton.chaos;

import dev.baton.framework.BatonClient;
import dev.baton.test.ParentChannel;
import dev.baton.test.TestClients;
import java.time.Duration;

/**
 * A {@link MutexWorker} in a JVM of its own, started by the process chaos test as a
 * {@code ClientProcess}. It reports to its parent over the line protocol and writes to the
 * parent's fenced store by asking it ("write &lt;token&gt;", answered "accepted" or "refused").
 * It works until it is killed, or until its parent goes away.
 *
 * <p>Arguments: connect string, mutex path, style (FENCED or CAREFUL), writes per hold,
 * milliseconds between writes, session timeout in milliseconds, how long an acquisition waits in
 * milliseconds.
 */
final class MutexWorkerMain {
    /** Longer than any pause the test injects: the wait for an answer counts the time spent frozen. */
    private static final Duration ASK_TIMEOUT = Duration.ofSeconds(60);

    private MutexWorkerMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        ParentChannel parent = ParentChannel.open();
        BatonClient client = TestClients.started(args[0], Duration.ofMillis(Long.parseLong(args[5])));
        parent.report("ready");
        MutexWorker.Sink sink = new MutexWorker.Sink() {
            @Override
            public void report(String kind, long value, String... more) {
                Object[] fields = new Object[1 + more.length];
                fields[0] = value;
                System.arraycopy(more, 0, fields, 1, more.length);
                parent.report(kind, fields);
            }

            @Override
            public boolean write(long token) throws InterruptedException {
                return "accepted".equals(parent.ask(ASK_TIMEOUT, "write", token));
            }
        };
        MutexWorker worker = new MutexWorker(client, args[1], MutexWorker.Style.valueOf(args[2]),
            Integer.parseInt(args[3]), Duration.ofMillis(Long.parseLong(args[4])), sink, d -> Thread.sleep(d.toMillis()),
            Duration.ofMillis(Long.parseLong(args[6])));
        while (true) {
            try {
                worker.step();
            } catch (RuntimeException e) {
                // faults make acquisitions and releases fail; the parent counts them, the worker goes on
                parent.report("error", e.getClass().getSimpleName());
                // the workload's back-off, not a wait for anything: a worker whose every step fails at
                // once (no quorum) would otherwise spin and flood the parent with error reports
                Thread.sleep(50);
            }
        }
    }
}
