package dev.baton.test.examples;

import dev.baton.framework.BatonClient;
import dev.baton.test.ParentChannel;
import java.time.Duration;

/**
 * A {@link LeaderCounter} in a JVM of its own, for {@link LeaderCounterTest}: arguments are the
 * connect string, the counter's folder, {@code fenced} or {@code unfenced} (the canary), and the
 * session timeout in milliseconds. It reports {@code ready}, then {@code leading <token>} whenever
 * it takes the lead, {@code ack <value>} for each increment the servers acknowledged and
 * {@code failed <exception>} for each that failed, and
 * {@code resigned} when it stops leading, until it is killed.
 */
final class CounterWorkerMain {
    private CounterWorkerMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        ParentChannel parent = ParentChannel.open();
        BatonClient client = BatonClient.builder().connectString(args[0])
            .sessionTimeout(Duration.ofMillis(Long.parseLong(args[3]))).build();
        client.start();
        if (!client.blockUntilConnected(Duration.ofSeconds(30))) {
            throw new IllegalStateException("no connection to " + args[0]);
        }
        LeaderCounter counter = args[2].equals("fenced")
            ? LeaderCounter.fenced(client, args[1]) : LeaderCounter.unfenced(client, args[1]);
        parent.report("ready");
        CounterWorkerMain.work(counter, new Reporter() {
            @Override
            public void leading(long token) {
                parent.report("leading", token);
            }

            @Override
            public void acknowledged(long value) {
                parent.report("ack", value);
            }

            @Override
            public void failed(Exception e) {
                parent.report("failed", e.getClass().getSimpleName());
            }

            @Override
            public void resigned() {
                parent.report("resigned");
            }
        }, () -> false);
    }

    /** Where a worker says what happened. */
    interface Reporter {
        void leading(long token);

        void acknowledged(long value);

        void failed(Exception e);

        /** It led and does not any more (it saw its leadership lost, or failed to write). */
        void resigned();
    }

    /** Leads and increments every 20 ms until {@code stop} says so; the same loop in a child JVM and in a test thread. */
    static void work(LeaderCounter counter, Reporter reporter, java.util.function.BooleanSupplier stop)
        throws InterruptedException {
        long led = 0;
        while (!stop.getAsBoolean()) {
            boolean leading;
            try {
                leading = counter.lead(Duration.ofMillis(200));
            } catch (RuntimeException e) { // no connection during an election: no increment was tried
                leading = false;
            }
            if (!leading && led != 0) {
                led = 0;
                reporter.resigned();
            }
            if (leading) {
                if (counter.token() != led) {
                    led = counter.token();
                    reporter.leading(led);
                }
                try {
                    reporter.acknowledged(counter.increment());
                } catch (RuntimeException e) {
                    reporter.failed(e);
                }
            }
            Thread.sleep(20); // the worker's own pace, not a wait for something to happen
        }
    }
}
