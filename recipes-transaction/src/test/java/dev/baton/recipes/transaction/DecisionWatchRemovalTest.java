package dev.baton.recipes.transaction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.framework.BatonObserver;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.server.FourLetterWords;
import dev.baton.test.EnsembleTest;
import dev.baton.test.OneShotWatches;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * A coordinator that stops waiting for a decision takes its watch on the decision node back. The
 * watch is a one-shot exists watch: when the decision is created it fires and is gone, but on a
 * transaction deleted while undecided, or one still undecided when the coordinator is closed, it
 * waits for a node that never comes — before, it stayed on the client and on the server for the
 * rest of the session, one more for every such transaction on a long-lived client. Seen on both
 * sides: the client's own list of exists and data watches (ZooKeeper keeps it for tests, not in
 * its public API) and the server's count ({@code wchs}; this class has its own server).
 */
@EnsembleTest
class DecisionWatchRemovalTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final int TRANSACTIONS = 5;
    private static final Pattern TOTAL = Pattern.compile("Total watches:\\s*(\\d+)");

    EmbeddedEnsemble ensemble;

    @Test
    void transactionsDeletedUndecidedLeaveNoWatchOnTheirDecisions(BatonClient coordinatorClient, BatonClient operator,
                                                                   TestInfo test) throws Exception {
        String folder = folder(test);
        int before = registerAbsent(operator, folder, "a");
        AtomicInteger removals = removals(coordinatorClient);
        TransactionCoordinator coordinator = TransactionCoordinator.builder(coordinatorClient, folder).build();
        List<PendingTransaction> started = startUndecided(coordinator, Duration.ofSeconds(2));
        Set<String> decisions = decisionPaths(started);
        awaitWatched(coordinatorClient, decisions, before);

        for (PendingTransaction tx : started) {
            operator.delete().deletingChildrenIfNeeded().forPath(tx.path()); // an operator's clean-up, before anyone decided
        }
        for (PendingTransaction tx : started) {
            // at its deadline the coordinator finds it gone
            assertThatThrownBy(() -> tx.await(WAIT)).isInstanceOf(TransactionException.class).hasMessageContaining("was removed");
        }

        awaitNoneLeft(coordinatorClient, decisions, before);
        await().atMost(WAIT).untilAsserted(() -> assertThat(removals.get()).as("watch removals the coordinator sent")
            .isEqualTo(TRANSACTIONS));
        coordinator.close();
    }

    @Test
    void aCoordinatorClosedBeforeTheDecisionsLeavesNoWatchOnThem(BatonClient coordinatorClient, BatonClient operator,
                                                                  TestInfo test) throws Exception {
        String folder = folder(test);
        int before = registerAbsent(operator, folder, "a");
        AtomicInteger removals = removals(coordinatorClient);
        TransactionCoordinator coordinator = TransactionCoordinator.builder(coordinatorClient, folder).build();
        // nobody votes and the deadline is far off: nobody will create these decision nodes for a while
        List<PendingTransaction> started = startUndecided(coordinator, Duration.ofMinutes(10));
        Set<String> decisions = decisionPaths(started);
        awaitWatched(coordinatorClient, decisions, before);

        coordinator.close();
        for (PendingTransaction tx : started) {
            assertThatThrownBy(() -> tx.await(WAIT)).isInstanceOf(TransactionException.class).hasMessageContaining("closed");
        }

        awaitNoneLeft(coordinatorClient, decisions, before);
        await().atMost(WAIT).untilAsserted(() -> assertThat(removals.get()).as("watch removals the coordinator sent")
            .isEqualTo(TRANSACTIONS));
    }

    /**
     * The usual way: the decision's creation fires the watch, which is then gone, so the
     * coordinator has nothing to remove and sends no removal.
     */
    @Test
    void decidedTransactionsLeaveNoWatchOnTheirDecisions(BatonClient coordinatorClient, BatonClient pa, BatonClient pb,
                                                         TestInfo test) throws Exception {
        String folder = folder(test);
        AtomicInteger removals = removals(coordinatorClient);
        try (TransactionParticipant a = TransactionParticipant.builder(pa, folder, "a", new RecordingHandler()).build();
             TransactionParticipant b = TransactionParticipant.builder(pb, folder, "b", new RecordingHandler()).build();
             TransactionCoordinator coordinator = TransactionCoordinator.builder(coordinatorClient, folder).build()) {
            a.start();
            b.start();
            List<PendingTransaction> started = new ArrayList<>();
            for (int i = 0; i < TRANSACTIONS; i++) {
                started.add(coordinator.start(Set.of("a", "b"), new byte[0], Duration.ofMinutes(1)));
            }
            for (PendingTransaction tx : started) {
                assertThat(tx.await(WAIT)).as("the decision of %s", tx.id()).isNotNull();
            }
            Set<String> decisions = decisionPaths(started);
            await().atMost(WAIT).untilAsserted(() -> assertThat(intersection(oneShotWatches(coordinatorClient), decisions))
                .as("decisions read that the coordinator's client still watches").isEmpty());
            assertThat(removals.get()).as("watch removals the coordinator sent").isZero();
        }
    }

    /**
     * Decided at the coordinator's deadline, by the coordinator itself: the decision's creation
     * fires the watch before the coordinator reads the decision back, so here too there is
     * nothing to remove.
     */
    @Test
    void transactionsAbortedAtTheCoordinatorsDeadlineLeaveNoWatch(BatonClient coordinatorClient, BatonClient operator,
                                                                 TestInfo test) throws Exception {
        String folder = folder(test);
        int before = registerAbsent(operator, folder, "a");
        AtomicInteger removals = removals(coordinatorClient);
        try (TransactionCoordinator coordinator = TransactionCoordinator.builder(coordinatorClient, folder).build()) {
            List<PendingTransaction> started = startUndecided(coordinator, Duration.ofSeconds(1));
            Set<String> decisions = decisionPaths(started);
            for (PendingTransaction tx : started) {
                assertThat(tx.await(WAIT).outcome()).as("the outcome of %s", tx.id()).isEqualTo(Outcome.ABORT);
            }
            awaitNoneLeft(coordinatorClient, decisions, before);
            assertThat(removals.get()).as("watch removals the coordinator sent").isZero();
        }
    }

    /** Counts the watch removals {@code client} sends. */
    private static AtomicInteger removals(BatonClient client) {
        AtomicInteger removals = new AtomicInteger();
        client.addObserver(new BatonObserver() {
            @Override
            public void requestCompleted(String operation, long nanos, boolean succeeded) {
                if (operation.startsWith("remove")) {
                    removals.incrementAndGet();
                }
            }
        });
        return removals;
    }

    private static String folder(TestInfo test) {
        return "/tx/" + test.getTestMethod().orElseThrow().getName();
    }

    /**
     * Registers {@code id} and leaves no participant running: nobody votes, nobody decides.
     *
     * @return the server's count of watches once the participant's cache has taken its watch back
     */
    private int registerAbsent(BatonClient client, String folder, String id) throws Exception {
        int before = serverWatches();
        try (TransactionParticipant p = TransactionParticipant.builder(client, folder, id, new RecordingHandler()).build()) {
            p.start(); // the registration stays when it closes (it is persistent)
        }
        await("the closed participant's watch is gone").atMost(WAIT).until(() -> serverWatches() == before);
        return before;
    }

    private static List<PendingTransaction> startUndecided(TransactionCoordinator coordinator, Duration deadline)
        throws InterruptedException {
        List<PendingTransaction> started = new ArrayList<>();
        for (int i = 0; i < TRANSACTIONS; i++) {
            started.add(coordinator.start(Set.of("a"), new byte[0], deadline));
        }
        return started;
    }

    private static Set<String> decisionPaths(List<PendingTransaction> started) {
        Set<String> paths = new HashSet<>();
        started.forEach(tx -> paths.add(tx.path() + "/decision"));
        return paths;
    }

    /** The coordinator has looked at every decision: its exists watches are there, on the client and the server. */
    private void awaitWatched(BatonClient coordinatorClient, Set<String> decisions, int before) {
        await("the coordinator's client watches every decision " + decisions).atMost(WAIT)
            .until(() -> oneShotWatches(coordinatorClient).containsAll(decisions));
        await("the server holds one watch per decision").atMost(WAIT).until(() -> serverWatches() == before + TRANSACTIONS);
    }

    private void awaitNoneLeft(BatonClient coordinatorClient, Set<String> decisions, int before) {
        await().atMost(WAIT).untilAsserted(() -> assertThat(intersection(oneShotWatches(coordinatorClient), decisions))
            .as("decisions the coordinator stopped waiting for that its client still watches").isEmpty());
        await().atMost(WAIT).untilAsserted(() -> assertThat(serverWatches())
            .as("watches on the server (%d before the transactions)", before).isEqualTo(before));
    }

    private static Set<String> intersection(Set<String> a, Set<String> b) {
        Set<String> both = new HashSet<>(a);
        both.retainAll(b);
        return both;
    }

    /** The paths where the client holds a one-shot exists or data watch (the kinds a decision's exists watch can be). */
    private static Set<String> oneShotWatches(BatonClient client) {
        return OneShotWatches.on(client, OneShotWatches.EXISTS, OneShotWatches.DATA);
    }

    /** The server's count of watches over all sessions, from its {@code wchs} four-letter word. */
    private int serverWatches() throws Exception {
        String answer = FourLetterWords.send(ensemble.clientPort(1), "wchs", Duration.ofSeconds(5));
        Matcher total = TOTAL.matcher(answer);
        if (!total.find()) {
            throw new AssertionError("no watch count in the server's wchs answer: " + answer);
        }
        return Integer.parseInt(total.group(1));
    }
}
