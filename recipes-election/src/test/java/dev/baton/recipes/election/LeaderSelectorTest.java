package dev.baton.recipes.election;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.baton.framework.BatonClient;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.ChaosProxy;
import dev.baton.test.EnsembleTest;
import dev.baton.test.TestClients;
import dev.baton.test.history.LeadershipChecker;
import dev.baton.test.history.LeadershipHistory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

@EnsembleTest
class LeaderSelectorTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    EmbeddedEnsemble ensemble;

    /**
     * Work that leads until the test lets one term end (a permit), recording its term in the
     * history on entry and on return.
     */
    private static final class Worker implements LeaderSelectorListener {
        final String id;
        final LeadershipHistory history;
        final Semaphore endTerm = new Semaphore(0);
        final AtomicInteger interrupted = new AtomicInteger();

        Worker(String id, LeadershipHistory history) {
            this.id = id;
            this.history = history;
        }

        @Override
        public void takeLeadership(BatonClient client) {
            throw new UnsupportedOperationException("the variant with the token is called");
        }

        @Override
        public void takeLeadership(BatonClient client, long token) throws InterruptedException {
            history.granted(id, token);
            try {
                endTerm.acquire();
            } catch (InterruptedException e) {
                interrupted.incrementAndGet();
                throw e;
            } finally {
                history.ended(id);
            }
        }
    }

    @Test
    void selectorsTakeTurnsAndEachTermEndsBeforeTheNextBegins(BatonClient a, BatonClient b, BatonClient c) {
        LeadershipHistory history = new LeadershipHistory();
        List<Worker> workers = new ArrayList<>();
        List<LeaderSelector> selectors = new ArrayList<>();
        try {
            for (BatonClient client : List.of(a, b, c)) {
                Worker worker = new Worker("s" + workers.size(), history);
                LeaderSelector selector = new LeaderSelector(client, "/selector/turns", worker.id, worker);
                selector.autoRequeue();
                selector.start();
                workers.add(worker);
                selectors.add(selector);
            }
            for (int term = 1; term <= 9; term++) {
                int expected = term;
                await().atMost(WAIT).until(() -> history.grants() == expected && history.leaders().size() == 1);
                String leader = history.leaders().keySet().iterator().next();
                Worker current = workers.stream().filter(w -> w.id.equals(leader)).findFirst().orElseThrow();
                assertThat(selectors.get(workers.indexOf(current)).hasLeadership()).isTrue();
                current.endTerm.release();
            }
            LeadershipChecker.Verdict verdict = history.check().assertNeverTwoLeaders();
            assertThat(verdict.history().stream().filter(LeadershipHistory.Granted.class::isInstance)
                .map(e -> ((LeadershipHistory.Granted) e).participant()).distinct()).hasSize(3);
        } finally {
            selectors.forEach(LeaderSelector::close);
        }
    }

    @Test
    void takeLeadershipIsInterruptedWhenTheNodeIsDeletedAndTheNextLeads(BatonClient a, BatonClient b, BatonClient operator)
        throws Exception {
        LeadershipHistory history = new LeadershipHistory();
        Worker first = new Worker("first", history);
        Worker second = new Worker("second", history);
        try (LeaderSelector one = new LeaderSelector(a, "/selector/interrupt", "first", first);
             LeaderSelector two = new LeaderSelector(b, "/selector/interrupt", "second", second)) {
            one.start();
            await().atMost(WAIT).until(one::hasLeadership);
            two.start();
            await().atMost(WAIT).until(() -> LineOrder.of(operator, "/selector/interrupt").size() == 2);
            long token = one.leadershipToken();

            history.revoked(token, "operator deleted the leader's node");
            operator.delete().forPath("/selector/interrupt/" + LineOrder.of(operator, "/selector/interrupt").get(0));

            await().atMost(WAIT).until(two::hasLeadership);
            // both hear of the deletion from the servers at once: the interrupt may land just after
            await().atMost(WAIT).until(() -> first.interrupted.get() == 1);
            assertThat(one.hasLeadership()).isFalse();
            await().atMost(WAIT).until(() -> one.state() == LeaderSelector.State.IDLE); // no auto-requeue: one turn only
            assertThat(two.leadershipToken()).isGreaterThan(token);
            history.check().assertAtMostOneLeader();
        }
    }

    @Test
    void connectionLossUnderConnectionPolicyInterruptsTakeLeadershipAndTheNodeGoesWhenItReturns(BatonClient b,
                                                                                                 BatonClient operator)
        throws Exception {
        LeadershipHistory history = new LeadershipHistory();
        Worker cutOff = new Worker("cut-off", history);
        Worker other = new Worker("other", history);
        String path = "/selector/cut";
        try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1));
             BatonClient a = TestClients.started(proxy.connectString(), Duration.ofSeconds(10));
             LeaderSelector one = LeaderSelector.builder(a, path, "cut-off", cutOff).policy(LeadershipPolicy.CONNECTION).build();
             LeaderSelector two = new LeaderSelector(b, path, "other", other)) {
            one.start();
            await().atMost(WAIT).until(one::hasLeadership);
            two.start();
            await().atMost(WAIT).until(() -> LineOrder.of(operator, path).size() == 2);

            proxy.cut();
            await().atMost(WAIT).until(() -> cutOff.interrupted.get() == 1);
            assertThat(one.hasLeadership()).isFalse();
            assertThat(two.hasLeadership()).as("the cut-off node is still first until it is deleted").isFalse();
            proxy.heal();

            await().atMost(WAIT).until(two::hasLeadership);
            history.check().assertNeverTwoLeaders();
        }
    }

    @Test
    void exceptionFromTakeLeadershipIsLoggedWithItsStackTraceAndLeadershipReleased(BatonClient a, BatonClient b)
        throws Exception {
        ListAppender<ILoggingEvent> log = new ListAppender<>();
        Logger logger = (Logger) LoggerFactory.getLogger(LeaderSelector.class);
        log.start();
        logger.addAppender(log);
        CountDownLatch secondLeads = new CountDownLatch(1);
        try (LeaderSelector failing = new LeaderSelector(a, "/selector/throws", "failing", client -> {
                throw new IllegalStateException("boom (expected in this test)");
            });
             LeaderSelector next = new LeaderSelector(b, "/selector/throws", "next", client -> secondLeads.countDown())) {
            next.start();
            failing.start();
            assertThat(secondLeads.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
            await().atMost(WAIT).until(() -> log.list.stream().anyMatch(e -> e.getLevel() == Level.ERROR));
            ILoggingEvent logged = log.list.stream().filter(e -> e.getLevel() == Level.ERROR).findFirst().orElseThrow();
            assertThat(logged.getFormattedMessage()).contains("takeLeadership", "failing", "leadership released");
            assertThat(logged.getThrowableProxy().getMessage()).contains("boom");
            assertThat(logged.getThrowableProxy().getStackTraceElementProxyArray()).isNotEmpty();
        } finally {
            logger.detachAppender(log);
        }
    }

    @Test
    void closeInterruptsTakeLeadershipAndReturnsOnceItReturnedAndTheNodeIsGone(BatonClient a, BatonClient operator)
        throws Exception {
        LeadershipHistory history = new LeadershipHistory();
        Worker worker = new Worker("w", history);
        LeaderSelector selector = new LeaderSelector(a, "/selector/close", "w", worker);
        selector.start();
        await().atMost(WAIT).until(selector::hasLeadership);

        selector.close();

        assertThat(worker.interrupted).hasValue(1);
        assertThat(history.leaders()).isEmpty();
        assertThat(LineOrder.of(operator, "/selector/close")).isEmpty();
        assertThat(selector.state()).isEqualTo(LeaderSelector.State.CLOSED);
        assertThatThrownBy(selector::requeue).isInstanceOf(ElectionClosedException.class);
    }

    @Test
    void requeueTakesAnotherTurnAndTheTokenIsTheNodesCzxid(BatonClient a, BatonClient operator) throws Exception {
        AtomicInteger turns = new AtomicInteger();
        AtomicLong seenToken = new AtomicLong();
        AtomicLong nodeToken = new AtomicLong();
        try (LeaderSelector selector = new LeaderSelector(a, "/selector/requeue", "r", new LeaderSelectorListener() {
            @Override
            public void takeLeadership(BatonClient client) {
                throw new UnsupportedOperationException();
            }

            @Override
            public void takeLeadership(BatonClient client, long token) throws Exception {
                seenToken.set(token);
                String node = LineOrder.of(operator, "/selector/requeue").get(0);
                nodeToken.set(LineOrder.czxid(operator, "/selector/requeue/" + node));
                turns.incrementAndGet();
            }
        })) {
            assertThatThrownBy(selector::requeue).isInstanceOf(IllegalStateException.class).hasMessageContaining("start()");
            selector.start();
            await().atMost(WAIT).until(() -> turns.get() == 1 && selector.state() == LeaderSelector.State.IDLE);
            assertThat(seenToken.get()).isEqualTo(nodeToken.get());
            assertThat(selector.requeue()).isTrue();
            await().atMost(WAIT).until(() -> turns.get() == 2);
        }
    }

    /** A lambda written through withToken gets the term's token, the czxid of the selector's node. */
    @Test
    void withTokenGivesALambdaTheTermsToken(BatonClient a, BatonClient operator) throws Exception {
        String path = "/selector/with-token";
        AtomicLong seenToken = new AtomicLong(LeaderLatch.NO_TOKEN);
        AtomicLong nodeToken = new AtomicLong();
        LeaderSelectorListener listener = LeaderSelectorListener.withToken((client, token) -> {
            nodeToken.set(LineOrder.czxid(operator, path + "/" + LineOrder.of(operator, path).get(0)));
            seenToken.set(token);
        });
        try (LeaderSelector selector = new LeaderSelector(a, path, "t", listener)) {
            selector.start();
            await().atMost(WAIT).until(() -> seenToken.get() != LeaderLatch.NO_TOKEN);
            assertThat(seenToken.get()).as("the token the lambda received is its node's czxid").isEqualTo(nodeToken.get());
        }
        assertThatThrownBy(() -> listener.takeLeadership(a)).isInstanceOf(UnsupportedOperationException.class)
            .hasMessageContaining("takeLeadership(client, token)");
        assertThatThrownBy(() -> LeaderSelectorListener.withToken(null)).isInstanceOf(NullPointerException.class)
            .hasMessage("work");
    }
}
