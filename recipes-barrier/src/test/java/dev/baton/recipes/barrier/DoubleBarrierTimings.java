package dev.baton.recipes.barrier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.baton.framework.BatonClient;
import dev.baton.framework.NoNodeException;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.ClientProcess;
import dev.baton.test.EnsembleTest;
import dev.baton.test.TestClients;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * How long a dead member holds a double barrier's {@code leave}, printed, not judged (not a
 * {@code *Test}: it runs only when named): a member in a child JVM is SIGKILLed inside the barrier,
 * and the survivor's {@code leave} returns once the servers expire its session, for two session
 * timeouts. On a three-server embedded ensemble in this JVM. (The release after the last arrival,
 * beside Curator and a raw floor, is measured in benchmarks/: {@code benchmarks.jar barrier}.)
 *
 * <p>Run: {@code flock /tmp/baton-test.lock bash -c "echo chaos-bench; mvn -B -o -pl recipes-barrier -am
 * -Dtest=DoubleBarrierTimings -Dsurefire.failIfNoSpecifiedTests=false verify"}; the numbers are in
 * {@code recipes-barrier/target/surefire-reports/dev.baton.recipes.barrier.DoubleBarrierTimings-output.txt}.
 */
@EnsembleTest(nodes = 3)
class DoubleBarrierTimings {
    private static final Duration WAIT = Duration.ofSeconds(60);

    EmbeddedEnsemble ensemble;

    @Test
    void aKilledMembersAbsenceNoticed(BatonClient observer) throws Exception {
        assumeTrue(ClientProcess.supported(), "SIGKILL needs a Unix-like system");
        for (long sessionMs : new long[] {2000, 5000}) {
            for (int r = 0; r < 3; r++) {
                String path = "/timings/killed-" + sessionMs + "-" + r;
                List<ClientProcess.Message> reports = new CopyOnWriteArrayList<>();
                try (BatonClient survivorClient = TestClients.started(ensemble.connectString(), Duration.ofSeconds(10));
                     ClientProcess member = ClientProcess.builder("member", DoubleBarrierMemberMain.class)
                         .args(ensemble.connectString(), path, "2", Long.toString(sessionMs)).onMessage(reports::add).start()) {
                    DistributedDoubleBarrier survivor = new DistributedDoubleBarrier(survivorClient, path, 2);
                    await().atMost(WAIT).until(() -> memberCount(observer, path) == 1);
                    survivor.enter();
                    await().atMost(WAIT).until(() -> reports.stream().anyMatch(m -> m.kind().equals("entered")));
                    long killed = System.nanoTime();
                    member.kill();
                    assertThat(survivor.leave(WAIT)).isTrue();
                    System.out.printf("member SIGKILLed inside the barrier, its session timeout %d ms: the other's leave returned %d ms"
                        + " after the kill%n", sessionMs, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killed));
                }
            }
        }
    }

    private static int memberCount(BatonClient observer, String path) throws InterruptedException {
        try {
            return (int) observer.getChildren().forPath(path).stream().filter(BarrierRounds::isMember).count();
        } catch (NoNodeException e) {
            return 0;
        }
    }

}
