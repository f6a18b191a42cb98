package dev.baton.recipes.election;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.EnsembleTest;
import dev.baton.test.history.LeadershipChecker;
import dev.baton.test.history.LeadershipHistory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.junit.jupiter.api.Test;

/** Curator and Baton latches in one election (same node layout) agree on one leader through many hand-overs. */
@EnsembleTest
class CuratorInteropTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    EmbeddedEnsemble ensemble;

    /** One participant of either kind. */
    private interface Seat {
        String id();

        boolean leads();

        void rejoin() throws Exception;

        void close() throws Exception;
    }

    @Test
    void curatorAndBatonLatchesAgreeOnASingleLeader(BatonClient b1, BatonClient b2, BatonClient observer) throws Exception {
        String path = "/interop/latch";
        LeadershipHistory history = new LeadershipHistory();
        List<Seat> seats = new ArrayList<>();
        List<CuratorFramework> curators = new ArrayList<>();
        try {
            for (int i = 0; i < 2; i++) {
                CuratorFramework curator = CuratorFrameworkFactory.newClient(ensemble.connectString(), 10_000, 10_000, new RetryOneTime(100));
                curator.start();
                curators.add(curator);
                seats.add(curatorSeat(curator, path, "curator-" + i, history));
                seats.add(batonSeat(i == 0 ? b1 : b2, path, "baton-" + i, history));
            }
            for (int round = 0; round < 8; round++) {
                await().atMost(WAIT).until(() -> {
                    List<Seat> leading = seats.stream().filter(Seat::leads).toList();
                    return leading.size() == 1 && history.leaders().keySet().equals(java.util.Set.of(leading.get(0).id()))
                        && LineOrder.of(observer, path).size() == 4;
                });
                Seat leader = seats.stream().filter(Seat::leads).findFirst().orElseThrow();
                Participant headByData = new LeaderLatch(observer, path, "reader").getLeader();
                assertThat(headByData.id()).as("both kinds read the same head").isEqualTo(leader.id());
                leader.rejoin();
            }
            await().atMost(WAIT).until(() -> seats.stream().filter(Seat::leads).count() == 1);
            LeadershipChecker.Verdict verdict = history.check().assertNeverTwoLeaders();
            assertThat(verdict.terms()).isGreaterThanOrEqualTo(9);
        } finally {
            for (Seat seat : seats) {
                seat.close();
            }
            curators.forEach(CuratorFramework::close);
        }
    }

    /**
     * A Curator latch recording into the history: its term is its node's czxid; it stops leading
     * (as an application would) just before it closes, since Curator deletes its node before
     * telling listeners.
     */
    private static Seat curatorSeat(CuratorFramework curator, String path, String id, LeadershipHistory history) throws Exception {
        return new Seat() {
            private org.apache.curator.framework.recipes.leader.LeaderLatch latch = started();

            private org.apache.curator.framework.recipes.leader.LeaderLatch started() throws Exception {
                var l = new org.apache.curator.framework.recipes.leader.LeaderLatch(curator, path, id);
                l.addListener(new org.apache.curator.framework.recipes.leader.LeaderLatchListener() {
                    @Override
                    public void isLeader() {
                        try {
                            history.granted(id, curator.checkExists().forPath(l.getOurPath()).getCzxid());
                        } catch (Exception e) {
                            throw new IllegalStateException(e);
                        }
                    }

                    @Override
                    public void notLeader() {
                        // recorded at close, below
                    }
                });
                l.start();
                return l;
            }

            public String id() {
                return id;
            }

            public boolean leads() {
                return latch.hasLeadership();
            }

            public void rejoin() throws Exception {
                close();
                latch = started();
            }

            public void close() throws Exception {
                if (history.leaders().containsKey(id)) {
                    history.ended(id);
                }
                latch.close();
            }
        };
    }

    private static Seat batonSeat(BatonClient client, String path, String id, LeadershipHistory history) {
        return new Seat() {
            private LeaderLatch latch = started();

            private LeaderLatch started() {
                LeaderLatch l = new LeaderLatch(client, path, id);
                l.addListener(LeaderLatchListener.of(token -> history.granted(id, token), () -> history.ended(id)));
                l.start();
                return l;
            }

            public String id() {
                return id;
            }

            public boolean leads() {
                return latch.hasLeadership();
            }

            public void rejoin() {
                latch.close();
                latch = started();
            }

            public void close() {
                latch.close();
            }
        };
    }
}
