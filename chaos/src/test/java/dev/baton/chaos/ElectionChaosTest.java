package dev.baton.chaos;

import dev.baton.recipes.election.LeaderLatch;
import dev.baton.recipes.election.LeaderLatchListener;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.EnsembleTest;
import dev.baton.test.Nemesis.Fault;
import dev.baton.test.history.LeadershipHistory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Five latches in one election under faults: at most one leader at any instant, terms only grow. */
@EnsembleTest(nodes = 3)
class ElectionChaosTest {
    EmbeddedEnsemble ensemble;

    @Test
    void neverTwoLeadersUnderFaults() throws Exception {
        LeadershipHistory history = new LeadershipHistory();
        List<LeaderLatch> latches = new ArrayList<>();
        AtomicLong[] terms = new AtomicLong[5];
        for (int i = 0; i < 5; i++) {
            terms[i] = new AtomicLong(-1);
        }
        // the servers ended a client's session: if it led, its term is revoked from outside
        // (heard before and after the kill: each term is revoked once)
        java.util.Set<Long> revoked = java.util.concurrent.ConcurrentHashMap.newKeySet();
        java.util.function.IntConsumer expired = c -> {
            long term = terms[c].get();
            if (term >= 0 && revoked.add(term)) {
                history.revoked(term, "session of participant " + c + " expired by the nemesis");
            }
        };
        try (ChaosRun run = new ChaosRun("election", ensemble, 5, Duration.ofSeconds(3), expired,
            Fault.KILL_LEADER, Fault.RESTART_SERVER, Fault.LOSE_QUORUM, Fault.CUT_CLIENT, Fault.DELAY_CLIENT,
            Fault.PAUSE_CLIENT, Fault.EXPIRE_SESSION)) {
            for (int i = 0; i < 5; i++) {
                String id = "p" + i;
                int index = i;
                LeaderLatch latch = new LeaderLatch(run.client(i), "/chaos/election", id);
                latch.addListener(new LeaderLatchListener() {
                    @Override
                    public void isLeader() {
                    }

                    @Override
                    public void isLeader(long token) {
                        terms[index].set(token);
                        history.granted(id, token);
                    }

                    @Override
                    public void notLeader() {
                        terms[index].set(-1);
                        history.ended(id);
                    }
                });
                latch.start();
                latches.add(latch);
            }
            // the workload: now and then the leader steps down gracefully and campaigns again
            Workers workers = new Workers();
            workers.start("abdicate", 1, w -> {
                workers.pace(Duration.ofSeconds(2));
                for (int i = 0; i < latches.size(); i++) {
                    if (latches.get(i).hasLeadership()) {
                        latches.get(i).close();
                        LeaderLatch again = new LeaderLatch(run.client(i), "/chaos/election", "p" + i);
                        int index = i;
                        again.addListener(new LeaderLatchListener() {
                            @Override
                            public void isLeader() {
                            }

                            @Override
                            public void isLeader(long token) {
                                terms[index].set(token);
                                history.granted("p" + index, token);
                            }

                            @Override
                            public void notLeader() {
                                terms[index].set(-1);
                                history.ended("p" + index);
                            }
                        });
                        again.start();
                        latches.set(i, again);
                        return true;
                    }
                }
                return false;
            });
            run.runFaults();
            workers.stop();
            run.verdict(history.grants(), Map.of("at most one leader, growing terms", history.check().violations()));
        } finally {
            latches.forEach(l -> l.close(LeaderLatch.CloseMode.SILENT));
        }
    }
}
