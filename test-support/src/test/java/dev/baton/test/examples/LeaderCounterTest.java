package dev.baton.test.examples;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.baton.framework.BatonClient;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.ClientProcess;
import dev.baton.test.ConnectString;
import dev.baton.test.EnsembleTest;
import dev.baton.test.Nemesis;
import dev.baton.test.history.Verdict;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A user's own recipe ({@link LeaderCounter}) proved the way Baton proves its own: a shared
 * three-server ensemble, faults provoked for real (the leader server killed, a client JVM killed
 * or frozen past its session), a history recorded by every actor and judged by the user's own
 * checker ({@link CounterHistory}), and a canary (the recipe without its fence) that the
 * checker must catch.
 */
@EnsembleTest(nodes = 3)
class LeaderCounterTest {
    /** The session of the worker JVMs: short, so a killed or frozen leader is replaced soon. */
    private static final Duration CHILD_SESSION = Duration.ofSeconds(2);

    EmbeddedEnsemble ensemble;
    @ConnectString String connect;

    @Test
    void everyIncrementCountsWhileTheLeaderServerIsKilled(BatonClient a, BatonClient b) throws Exception {
        CounterHistory history = new CounterHistory();
        AtomicBoolean stop = new AtomicBoolean();
        Set<Long> terms = ConcurrentHashMap.newKeySet();
        CompletableFuture<?> workerA = worker("a", LeaderCounter.fenced(a, "/server-kill"), history, stop, terms);
        CompletableFuture<?> workerB = worker("b", LeaderCounter.fenced(b, "/server-kill"), history, stop, terms);
        await().atMost(Duration.ofSeconds(10)).until(() -> history.entries().size() >= 5);

        Nemesis.Report report;
        try (Nemesis nemesis = Nemesis.builder(ensemble, 16L).faults(Nemesis.Fault.KILL_LEADER).atLeast(1)
                 .faultLength(Duration.ofMillis(500), Duration.ofSeconds(1)).build()) {
            report = nemesis.runFor(Duration.ofSeconds(1));
        }
        int before = history.entries().size();
        await().atMost(Duration.ofSeconds(20)).until(() -> history.entries().size() >= before + 5); // counting again
        stop.set(true);
        CompletableFuture.allOf(workerA, workerB).join();

        assertThat(report.counts().get(Nemesis.Fault.KILL_LEADER)).isPositive();
        // every client was cut off while the servers elected, so the leader stepped down and someone led anew
        assertThat(terms).as("leadership terms").hasSizeGreaterThan(1);
        CounterHistory.check(history.entries(), finalValue(a, "/server-kill")).assertOk();
    }

    @Test
    void aKilledLeaderProcessIsReplacedWithoutLosingAnIncrement(BatonClient survivor) throws Exception {
        assumeTrue(ClientProcess.supported(), "client processes need SIGSTOP/SIGKILL (Unix)");
        CounterHistory history = new CounterHistory();
        AtomicBoolean stop = new AtomicBoolean();
        try (ClientProcess child = counterProcess("child", "/process-kill", "fenced", history)) {
            await().atMost(Duration.ofSeconds(30)).until(() -> history.acknowledgedBy("child") >= 3); // it leads
            CompletableFuture<?> waiting = worker("survivor", LeaderCounter.fenced(survivor, "/process-kill"), history, stop);
            child.kill(); // SIGKILL mid-lead: its session, and so its leadership, lasts until the servers expire it
            await().atMost(Duration.ofSeconds(20)).until(() -> history.acknowledgedBy("survivor") >= 3);
            stop.set(true);
            waiting.join();
        }
        CounterHistory.check(history.entries(), finalValue(survivor, "/process-kill")).assertOk();
    }

    @Test
    void aLeaderProcessFrozenPastItsSessionIsFencedOut(BatonClient successor) throws Exception {
        Verdict verdict = freezeTheLeader("/freeze-fenced", "fenced", successor);
        verdict.assertOk();
    }

    @Test
    void theCheckerCatchesTheCanaryThatWritesWithoutItsFence(BatonClient successor) throws Exception {
        Verdict verdict = freezeTheLeader("/freeze-canary", "unfenced", successor);
        assertThat(verdict.isOk()).as("the canary must be caught").isFalse();
        // the violation names the child's stale write: a value the successor had, or the one the counter went back to
        assertThat(verdict.violations()).anyMatch(v -> v.contains("and to child at") || v.contains("below it: child"));
        assertThatThrownBy(verdict::assertOk).isInstanceOf(AssertionError.class)
            .hasMessageContaining("every acknowledged increment counted once violated");
    }

    /**
     * The child leads and counts; it is frozen (SIGSTOP) past its session, so the servers end it
     * and the in-JVM successor leads and counts on; then it is thawed and counts once more,
     * believing it still leads. Judged by the user's checker.
     */
    private Verdict freezeTheLeader(String base, String variant, BatonClient successor) throws Exception {
        assumeTrue(ClientProcess.supported(), "client processes need SIGSTOP/SIGCONT (Unix)");
        CounterHistory history = new CounterHistory();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<Instant> resigned = new AtomicReference<>(Instant.EPOCH);
        try (ClientProcess child = ClientProcess.builder("child", CounterWorkerMain.class)
                 .args(connect, base, variant, Long.toString(CHILD_SESSION.toMillis()))
                 .onMessage(m -> {
                     history.record(m);
                     if (m.kind().equals("resigned")) {
                         resigned.set(m.time());
                     }
                 })
                 .start()) {
            await().atMost(Duration.ofSeconds(30)).until(() -> history.acknowledgedBy("child") >= 3);
            CompletableFuture<?> waiting = worker("survivor", LeaderCounter.fenced(successor, base), history, stop);
            child.pause();
            await().atMost(Duration.ofSeconds(20)).until(() -> history.acknowledgedBy("survivor") >= 3);
            Instant thawed = Instant.now();
            child.resume();
            // thawed, the fenced child finds its leadership gone and steps down; the canary writes on. Its
            // first acknowledgement may be of a write sent as it froze (stamped when it is reported, after
            // the thaw); the second is surely of a value the successor wrote too
            await().atMost(Duration.ofSeconds(20)).until(() -> resigned.get().isAfter(thawed)
                || history.acknowledgedAfter("child", thawed) >= 2);
            child.kill();
            stop.set(true);
            waiting.join();
        }
        return CounterHistory.check(history.entries(), finalValue(successor, base));
    }

    private ClientProcess counterProcess(String name, String base, String variant, CounterHistory history)
        throws Exception {
        return ClientProcess.builder(name, CounterWorkerMain.class)
            .args(connect, base, variant, Long.toString(CHILD_SESSION.toMillis()))
            .onMessage(history::record)
            .start();
    }

    /** Runs {@link CounterWorkerMain#work} on a thread of its own, recording as {@code name}. */
    private static CompletableFuture<?> worker(String name, LeaderCounter counter, CounterHistory history,
                                               AtomicBoolean stop) {
        return worker(name, counter, history, stop, ConcurrentHashMap.newKeySet());
    }

    /** The same, adding each leadership term's fencing token to {@code terms}. */
    private static CompletableFuture<?> worker(String name, LeaderCounter counter, CounterHistory history,
                                               AtomicBoolean stop, Set<Long> terms) {
        return CompletableFuture.runAsync(() -> {
            try (counter) {
                CounterWorkerMain.work(counter, new CounterWorkerMain.Reporter() {
                    @Override
                    public void leading(long token) {
                        terms.add(token);
                    }

                    @Override
                    public void acknowledged(long value) {
                        history.acknowledged(name, value);
                    }

                    @Override
                    public void failed(Exception e) {
                        history.failed(name, e.getClass().getSimpleName());
                    }

                    @Override
                    public void resigned() {
                    }
                }, stop::get);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
    }

    private static long finalValue(BatonClient client, String base) throws InterruptedException {
        return Long.parseLong(new String(client.getData().forPath(base + "/counter"), UTF_8));
    }
}
