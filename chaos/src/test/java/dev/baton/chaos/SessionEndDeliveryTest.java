package dev.baton.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ConnectionState;
import dev.baton.framework.ConnectionStateChange;
import dev.baton.framework.ConnectionStateListener;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.SessionKiller;
import dev.baton.test.TestClients;
import dev.baton.test.history.ServerTruth;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Measures the floor behind {@link ChaosRun#DELIVERY_MARGIN}: when the servers end the session
 * of a connected client, how long after an observer sees the client's ephemeral node deleted does
 * the client itself hear of it — a plain ZooKeeper client (Disconnected), and a Baton client
 * (SUSPENDED, the loss signal under the STANDARD policy). The numbers go to the build log and to
 * {@code target/chaos-reports/session-end-delivery.txt}; the test itself asserts only that every
 * client hears.
 */
class SessionEndDeliveryTest {
    private static final int TRIALS = 6;
    private static EmbeddedEnsemble ensemble;

    /** The module's shared ensemble (see {@link ChaosRun#childProcessEnsemble()}): not closed here. */
    @BeforeAll
    static void start() {
        ensemble = ChaosRun.childProcessEnsemble();
    }

    @Test
    void aClientWhoseSessionTheServersEndHearsSoonAfterOthersSeeItsNodeGo() throws Exception {
        List<Double> plain = new ArrayList<>();
        List<Double> baton = new ArrayList<>();
        try (ServerTruth truth = ServerTruth.watch(ensemble, List.of("/delivery"));
             BatonClient setup = TestClients.started(ensemble.connectString(), Duration.ofSeconds(10))) {
            setup.create().creatingParentsIfNeeded().forPath("/delivery/ready");
            for (int i = 0; i < TRIALS; i++) {
                CompletableFuture<Long> disconnected = new CompletableFuture<>();
                Watcher watcher = e -> {
                    if (e.getState() == Watcher.Event.KeeperState.Disconnected) {
                        disconnected.complete(System.nanoTime());
                    }
                };
                ZooKeeper victim = new ZooKeeper(ensemble.connectString(), 3000, watcher);
                try {
                    String node = victim.create("/delivery/plain-", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE,
                        CreateMode.EPHEMERAL_SEQUENTIAL);
                    SessionKiller.expire(victim, ensemble.connectString(), Duration.ofSeconds(10));
                    long heard = disconnected.get(10, TimeUnit.SECONDS);
                    plain.add(lag(truth, node, heard));
                } finally {
                    victim.close();
                }

                CompletableFuture<Long> suspended = new CompletableFuture<>();
                try (BatonClient client = TestClients.started(ensemble.connectString(), Duration.ofSeconds(3))) {
                    client.addConnectionStateListener(new ConnectionStateListener() {
                        @Override
                        public void stateChanged(BatonClient c, ConnectionState s) {
                        }

                        @Override
                        public void stateChanged(BatonClient c, ConnectionStateChange change) {
                            if (change.state() == ConnectionState.SUSPENDED || change.state() == ConnectionState.LOST) {
                                suspended.complete(System.nanoTime());
                            }
                        }
                    });
                    String node = client.create().withMode(CreateMode.EPHEMERAL_SEQUENTIAL).forPath("/delivery/baton-");
                    SessionKiller.expire(client, ensemble.connectString(), Duration.ofSeconds(10));
                    baton.add(lag(truth, node, suspended.get(10, TimeUnit.SECONDS)));
                }
            }
        }
        String report = "session end delivery on a 3-server child-process ensemble, " + TRIALS + " trials each:\n"
            + "  plain ZooKeeper client, Disconnected after the node's deletion was observed: " + stats(plain) + "\n"
            + "  Baton client, SUSPENDED after the node's deletion was observed: " + stats(baton) + "\n"
            + "  the checkers' delivery margin: " + ChaosRun.DELIVERY_MARGIN.toMillis() + " ms\n";
        System.out.print(report);
        Path dir = Path.of(System.getProperty("baton.chaos.reports", "target/chaos-reports"));
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("session-end-delivery.txt"), report, StandardCharsets.UTF_8);
        assertThat(plain).hasSize(TRIALS);
        assertThat(baton).hasSize(TRIALS);
    }

    /** Milliseconds from the observers' first sight of the node's deletion to {@code heardNanos}. */
    private static double lag(ServerTruth truth, String node, long heardNanos) {
        ServerTruth.Node life = org.awaitility.Awaitility.await("an observer sees " + node + " deleted")
            .atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(5))
            .until(() -> truth.lives(node).stream().filter(ServerTruth.Node::deleted).findFirst(), java.util.Optional::isPresent)
            .orElseThrow();
        return (heardNanos - life.deletedNanos()) / 1e6;
    }

    private static String stats(List<Double> ms) {
        List<Double> sorted = new ArrayList<>(ms);
        Collections.sort(sorted);
        return String.format("min %.0f ms, median %.0f ms, max %.0f ms", sorted.get(0), sorted.get(sorted.size() / 2),
            sorted.get(sorted.size() - 1));
    }
}
