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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.junit.jupiter.api.Test;

/**
 * Timings a double-barrier user cares about, printed, not judged (not a {@code *Test}: it runs only
 * when named). On a three-server embedded ensemble in this JVM:
 *
 * <ol>
 *   <li>Release: N-1 members wait in {@code enter}; the N-th arrives; how long from its call until
 *       every member's {@code enter} returned. Baton's and Curator 5.9's double barrier, same
 *       ensemble, same loop, N = 2, 5, 10, 20.</li>
 *   <li>A dead member: a member in a child JVM is SIGKILLed inside the barrier; how long until the
 *       survivor's {@code leave} returns, for two session timeouts of the dead member.</li>
 * </ol>
 *
 * <p>Run: {@code flock /tmp/baton-test.lock bash -c "echo chaos-bench; mvn -B -o -pl recipes-barrier -am
 * -Dtest=DoubleBarrierTimings -Dsurefire.failIfNoSpecifiedTests=false verify"}; the numbers are in
 * {@code recipes-barrier/target/surefire-reports/dev.baton.recipes.barrier.DoubleBarrierTimings-output.txt}.
 */
@EnsembleTest(nodes = 3)
class DoubleBarrierTimings {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final int WARMUP = 3;
    private static final int ROUNDS = 15;

    EmbeddedEnsemble ensemble;

    /** One member's enter and leave, Baton's or Curator's. */
    private interface Member {
        void enter() throws Exception;

        void leave() throws Exception;
    }

    @Test
    void releaseAfterTheLastArrival(BatonClient observer) throws Exception {
        for (int n : new int[] {2, 5, 10, 20}) {
            List<BatonClient> batonClients = new ArrayList<>();
            List<CuratorFramework> curators = new ArrayList<>();
            try {
                List<Member> baton = new ArrayList<>();
                List<Member> curator = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    BatonClient c = TestClients.started(ensemble.connectString(), Duration.ofSeconds(10));
                    batonClients.add(c);
                    DistributedDoubleBarrier m = new DistributedDoubleBarrier(c, "/timings/baton-" + n, n);
                    baton.add(new Member() {
                        public void enter() throws Exception { m.enter(); }
                        public void leave() throws Exception { m.leave(); }
                    });
                    CuratorFramework cf = CuratorFrameworkFactory.newClient(ensemble.connectString(), new RetryOneTime(100));
                    cf.start();
                    cf.blockUntilConnected();
                    curators.add(cf);
                    var cm = new org.apache.curator.framework.recipes.barriers.DistributedDoubleBarrier(cf, "/timings/curator-" + n, n);
                    curator.add(new Member() {
                        public void enter() throws Exception { cm.enter(); }
                        public void leave() throws Exception { cm.leave(); }
                    });
                }
                long[] batonMs = new long[ROUNDS];
                long[] curatorMs = new long[ROUNDS];
                int[] early = new int[2];
                for (int r = -WARMUP; r < ROUNDS; r++) {
                    long b = round(observer, "/timings/baton-" + n, baton, early, 0);
                    long c = round(observer, "/timings/curator-" + n, curator, early, 1);
                    if (r >= 0) {
                        batonMs[r] = b;
                        curatorMs[r] = c;
                    }
                }
                System.out.printf("release after the last arrival, N=%2d, %d rounds: Baton median %s ms, max %s ms, %d early passes"
                        + " | Curator 5.9 median %s ms, max %s ms, %d early passes%n", n, ROUNDS + WARMUP,
                    ms(median(batonMs)), ms(max(batonMs)), early[0], ms(median(curatorMs)), ms(max(curatorMs)), early[1]);
                assertThat(early[0]).as("Baton: no member passes enter before the last arrival").isZero();
            } finally {
                batonClients.forEach(BatonClient::close);
                curators.forEach(CuratorFramework::close);
            }
        }
    }

    /**
     * One round: all but the last enter and wait, the last arrives; nanoseconds until every enter
     * returned. A member whose enter returned before the last arrival is counted in {@code early[slot]}.
     */
    private long round(BatonClient observer, String path, List<Member> members, int[] early, int slot) throws Exception {
        int n = members.size();
        List<CompletableFuture<Long>> entered = new ArrayList<>();
        for (int i = 0; i < n - 1; i++) {
            Member m = members.get(i);
            entered.add(CompletableFuture.supplyAsync(() -> call(m::enter)));
        }
        await().atMost(WAIT).pollInterval(Duration.ofMillis(5)).until(() -> memberCount(observer, path) == n - 1);
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100)); // every waiter parked on its watch, not still reading
        long arrival = System.nanoTime();
        entered.add(CompletableFuture.supplyAsync(() -> call(members.get(n - 1)::enter)));
        long last = 0;
        for (CompletableFuture<Long> e : entered) {
            long t = e.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            if (t <= arrival) {
                early[slot]++;
            }
            last = Math.max(last, t);
        }
        List<CompletableFuture<Long>> left = new ArrayList<>();
        for (Member m : members) {
            left.add(CompletableFuture.supplyAsync(() -> call(m::leave)));
        }
        for (CompletableFuture<Long> l : left) {
            l.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        }
        return last - arrival;
    }

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

    private interface Step {
        void run() throws Exception;
    }

    private static long call(Step step) {
        try {
            step.run();
            return System.nanoTime();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static long median(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    private static long max(long[] values) {
        return Arrays.stream(values).max().orElse(0);
    }

    private static String ms(long nanos) {
        return String.format("%.1f", nanos / 1e6);
    }
}
