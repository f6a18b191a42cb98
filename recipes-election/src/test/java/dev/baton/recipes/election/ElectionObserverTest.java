package dev.baton.recipes.election;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ClientClosedException;
import dev.baton.framework.ClientNotStartedException;
import dev.baton.recipes.election.ElectionEvent.LeaderChanged;
import dev.baton.recipes.election.ElectionEvent.NoLeader;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.EnsembleTest;
import dev.baton.test.SessionKiller;
import dev.baton.test.TestClients;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

@EnsembleTest
class ElectionObserverTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    EmbeddedEnsemble ensemble;

    @Test
    void observerReportsEachLeaderInOrderAndNoLeaderWhenTheLineEmpties(BatonClient watcher, BatonClient a, BatonClient b)
        throws Exception {
        String path = "/observed/order";
        List<ElectionEvent> events = new CopyOnWriteArrayList<>();
        try (ElectionObserver observer = new ElectionObserver(watcher, path)) {
            observer.addListener(events::add);
            observer.start();
            await().atMost(WAIT).until(() -> events.size() == 1);
            assertThat(events.get(0)).isEqualTo(new NoLeader());

            // each term lasts until the observer reported it (a shorter one may be skipped, as documented)
            LeaderLatch first = new LeaderLatch(a, path, "a");
            first.start();
            first.await();
            await().atMost(WAIT).until(() -> events.size() == 2);
            LeaderLatch second = new LeaderLatch(b, path, "b");
            second.start();
            await().atMost(WAIT).until(() -> LineOrder.of(watcher, path).size() == 2);
            long firstTerm = first.leadershipToken();
            first.close();
            second.await();
            await().atMost(WAIT).until(() -> events.size() == 3);
            long secondTerm = second.leadershipToken();
            second.close();

            await().atMost(WAIT).until(() -> events.size() == 4);
            assertThat(events).containsExactly(
                new NoLeader(),
                new LeaderChanged(new Participant("a", true), firstTerm),
                new LeaderChanged(new Participant("b", true), secondTerm),
                new NoLeader());
            assertThat(observer.current()).contains(new NoLeader());
        }
    }

    @Test
    void observerSeesWhatTheLeaderProclaimsInTheSameTerm(BatonClient watcher, BatonClient a) throws Exception {
        String path = "/observed/proclaim";
        List<ElectionEvent> events = new CopyOnWriteArrayList<>();
        try (LeaderLatch leader = new LeaderLatch(a, path, "10.0.0.1:8080");
             ElectionObserver observer = new ElectionObserver(watcher, path)) {
            leader.start();
            leader.await();
            observer.addListener(events::add);
            observer.start();
            await().atMost(WAIT).until(() -> events.size() == 1);

            leader.proclaim("10.0.0.1:9090");

            await().atMost(WAIT).until(() -> events.size() == 2);
            long term = leader.leadershipToken();
            assertThat(events).containsExactly(
                new LeaderChanged(new Participant("10.0.0.1:8080", true), term),
                new LeaderChanged(new Participant("10.0.0.1:9090", true), term));
        }
    }

    @Test
    void observerWhoseSessionExpiredCatchesUpWithWhatItMissed(BatonClient a, BatonClient b) throws Exception {
        String path = "/observed/expired";
        List<ElectionEvent> events = new CopyOnWriteArrayList<>();
        try (BatonClient watcher = dev.baton.test.TestClients.started(ensemble.connectString(), Duration.ofSeconds(10));
             ElectionObserver observer = new ElectionObserver(watcher, path);
             LeaderLatch first = new LeaderLatch(a, path, "a");
             LeaderLatch second = new LeaderLatch(b, path, "b")) {
            first.start();
            first.await();
            observer.addListener(events::add);
            observer.start();
            await().atMost(WAIT).until(() -> events.size() == 1);
            second.start();
            await().atMost(WAIT).until(() -> LineOrder.of(a, path).size() == 2);

            SessionKiller.expire(watcher, ensemble.connectString(), WAIT);
            first.close();
            second.await();

            await().atMost(WAIT).until(() -> events.size() == 2);
            assertThat(events.get(1)).isEqualTo(new LeaderChanged(new Participant("b", true), second.leadershipToken()));
            // the watch is back on the new session: later changes are heard too
            second.proclaim("b2");
            await().atMost(WAIT).until(() -> events.size() == 3);
            assertThat(((LeaderChanged) events.get(2)).leader().id()).isEqualTo("b2");
        }
    }

    @Test
    void startingOnAClientThatWasNeverStartedFailsAtOnceAndWorksOnceItIs(BatonClient a) throws Exception {
        // the newcomer's slip: build(), then the observer, and client.start() forgotten. Until
        // 2026-11-28 start() returned and no report ever came.
        String path = "/observer/unstarted";
        List<ElectionEvent> events = new CopyOnWriteArrayList<>();
        try (BatonClient unstarted = BatonClient.builder().connectString(ensemble.connectString()).build();
             ElectionObserver observer = new ElectionObserver(unstarted, path);
             LeaderLatch leader = new LeaderLatch(a, path, "a")) {
            observer.addListener(events::add);
            assertThatThrownBy(observer::start).isInstanceOf(ClientNotStartedException.class)
                .hasMessage("start the election observer /observer/unstarted: the client is not started; call start() first");
            assertThat(observer.state()).isEqualTo(ElectionObserver.State.LATENT);

            leader.start();
            leader.await();
            unstarted.start();
            observer.start();
            await().atMost(WAIT).until(() -> !events.isEmpty());
            assertThat(events.get(0)).as("the same observer reports once its client is started")
                .isEqualTo(new LeaderChanged(new Participant("a", true), leader.leadershipToken()));
        }
    }

    /** An observer closed before it started says so on start(), not that it "was already started". */
    @Test
    void startAfterCloseSaysClosedNotAlreadyStarted(BatonClient watcher) {
        ElectionObserver observer = new ElectionObserver(watcher, "/observer/closed-first");
        observer.close();
        assertThatThrownBy(observer::start).isInstanceOf(IllegalStateException.class)
            .hasMessage("observer on /observer/closed-first is closed: a closed observer cannot start again; build a new one");
    }

    /** A listener added to a closed observer would never hear anything: refused, as a closed latch refuses one. */
    @Test
    void addListenerAfterCloseIsRefused(BatonClient watcher) {
        ElectionObserver observer = new ElectionObserver(watcher, "/observer/listener-after-close");
        observer.start();
        observer.close();
        assertThatThrownBy(() -> observer.addListener(event -> { })).isInstanceOf(ElectionClosedException.class)
            .hasMessage("observer on /observer/listener-after-close is closed: a listener added now would never be called");
    }

    @Test
    void anObserverWhoseClientClosesIsClosedWithIt() {
        BatonClient own = TestClients.started(ensemble.connectString(), Duration.ofSeconds(10));
        ElectionObserver observer = new ElectionObserver(own, "/observer/client-closed");
        observer.start();
        own.close();   // the client only: the observer hears of it through its closing hook
        assertThat(observer.state()).as("an observer whose client closed is closed").isEqualTo(ElectionObserver.State.CLOSED);
        assertThatThrownBy(() -> observer.addListener(event -> { })).isInstanceOf(ElectionClosedException.class);
        observer.close();   // and closing it afterwards is harmless
    }

    @Test
    void startingOnAClosedClientFailsAtOnce() {
        BatonClient closed = TestClients.started(ensemble.connectString(), Duration.ofSeconds(10));
        closed.close();
        ElectionObserver observer = new ElectionObserver(closed, "/observer/closed-client");
        assertThatThrownBy(observer::start).isInstanceOf(ClientClosedException.class).hasMessageContaining("/observer/closed-client");
    }

    @Test
    void aListenerAddedLaterHearsTheLatestReportFirst(BatonClient watcher, BatonClient a) throws Exception {
        String path = "/observed/late";
        try (LeaderLatch leader = new LeaderLatch(a, path, "a"); ElectionObserver observer = new ElectionObserver(watcher, path)) {
            leader.start();
            leader.await();
            observer.start();
            await().atMost(WAIT).until(() -> observer.current().isPresent());
            List<ElectionEvent> late = new CopyOnWriteArrayList<>();
            observer.addListener(late::add);
            await().atMost(WAIT).until(() -> late.size() == 1);
            assertThat(late.get(0)).isEqualTo(new LeaderChanged(new Participant("a", true), leader.leadershipToken()));
        }
    }

    @Test
    void reportsNeverGoBackInTime() {
        LeaderChanged ten = new LeaderChanged(new Participant("a", true), 10);
        LeaderChanged twelve = new LeaderChanged(new Participant("b", true), 12);
        assertThat(ElectionObserver.next(null, -1, new NoLeader())).isEqualTo(new NoLeader());
        assertThat(ElectionObserver.next(ten, 10, ten)).as("nothing new").isNull();
        assertThat(ElectionObserver.next(ten, 10, twelve)).isEqualTo(twelve);
        assertThat(ElectionObserver.next(twelve, 12, ten)).as("an older term after a newer one").isNull();
        assertThat(ElectionObserver.next(new NoLeader(), 12, ten)).as("older term after NoLeader").isNull();
        LeaderChanged proclaimed = new LeaderChanged(new Participant("b2", true), 12);
        assertThat(ElectionObserver.next(twelve, 12, proclaimed)).isEqualTo(proclaimed);
    }
}
