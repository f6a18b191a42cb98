package dev.baton.chaos;

import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.recipes.barrier.DistributedDoubleBarrier;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.EnsembleTest;
import dev.baton.test.Nemesis.Fault;
import dev.baton.test.history.BarrierHistory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Five members cycle through a three-member double barrier under faults; nobody may pass early. */
@EnsembleTest(nodes = 3)
class BarrierChaosTest {
    private static final int MEMBERS = 3;

    EmbeddedEnsemble ensemble;

    @Test
    void nobodyPassesADoubleBarrierEarlyUnderFaults() throws Exception {
        BarrierHistory history = new BarrierHistory();
        try (ChaosRun run = new ChaosRun("barrier", ensemble, 5, Duration.ofSeconds(3),
            Fault.KILL_LEADER, Fault.RESTART_SERVER, Fault.CUT_CLIENT, Fault.DELAY_CLIENT, Fault.PAUSE_CLIENT, Fault.EXPIRE_SESSION)) {
            List<DistributedDoubleBarrier> barriers = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                barriers.add(new DistributedDoubleBarrier(run.client(i), "/chaos/barrier", MEMBERS));
            }
            Workers workers = new Workers();
            workers.start("member", 5, i -> {
                String me = "m" + i;
                DistributedDoubleBarrier barrier = barriers.get(i);
                history.arrived(me);
                boolean in;
                try {
                    in = barrier.enter(Duration.ofSeconds(3));
                } catch (RuntimeException e) {
                    // enter failed (no connection for too long): its node is deleted in the background
                    // once the connection allows, and until then the others may count it. The member
                    // is present until that node is gone.
                    String node = "/chaos/barrier/" + barrier.memberName();
                    BatonClient client = run.client(i);
                    await().atMost(Duration.ofSeconds(60)).ignoreExceptions()
                        .until(() -> client.checkExists().forPath(node) == null);
                    history.gaveUp(me);
                    throw e;
                }
                if (!in) {
                    history.gaveUp(me);
                    return false;
                }
                history.passed(me);
                history.leaving(me);
                barrier.leave(Duration.ofSeconds(3));
                return true;
            });
            run.runFaults();
            workers.stop();
            run.verdict(history.passes(), Map.of("nobody passes enter early", history.checkNobodyPassedEarly(MEMBERS)));
        }
    }
}
