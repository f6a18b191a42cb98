package dev.baton.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.server.EmbeddedEnsemble;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The nemesis's partition faults cut servers apart; writes go on through a majority, and the heal leaves every server in sync. */
@EnsembleTest(nodes = 3, peerProxies = true)
class NemesisPartitionTest {
    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final List<Nemesis.Fault> PARTITIONS =
        List.of(Nemesis.Fault.ISOLATE_LEADER, Nemesis.Fault.ISOLATE_FOLLOWER, Nemesis.Fault.SPLIT_SERVERS);

    EmbeddedEnsemble ensemble;

    @Test
    void partitionFaultsLetTheMajorityWriteAndLeaveEveryServerInSyncOnceHealed(BatonClient client) throws Exception {
        client.create().forPath("/partitioned");
        AtomicBoolean writing = new AtomicBoolean(true);
        AtomicInteger written = new AtomicInteger();
        Thread writer = new Thread(() -> {
            for (int n = 0; writing.get(); n++) {
                try {
                    client.create().forPath("/partitioned/w-" + n);
                    written.incrementAndGet();
                } catch (RuntimeException e) {
                    // a partition can cut the client's server off; the next write tries again
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "partition-writer");
        List<String> log = new CopyOnWriteArrayList<>();
        Nemesis.Report report;
        try (Nemesis nemesis = Nemesis.builder(ensemble, 7)
                 .faults(Nemesis.Fault.ISOLATE_LEADER, Nemesis.Fault.ISOLATE_FOLLOWER, Nemesis.Fault.SPLIT_SERVERS)
                 .quietBetween(Duration.ofMillis(200), Duration.ofMillis(400))
                 .faultLength(Duration.ofMillis(500), Duration.ofMillis(1500))
                 .log(line -> {
                     log.add(line);
                     System.out.println(line);
                 }).build()) {
            writer.start();
            nemesis.start();
            await().atMost(WAIT).until(() -> PARTITIONS.stream().allMatch(f -> log.stream().anyMatch(l -> l.contains(f + " servers")))
                || nemesis.failed());
            report = nemesis.stop();
        } finally {
            writing.set(false);
            writer.join(WAIT.toMillis());
        }
        assertThat(report.counts().keySet()).containsExactlyInAnyOrderElementsOf(PARTITIONS);
        assertThat(log).anyMatch(l -> l.contains("cut off (SILENT)")).anyMatch(l -> l.contains("cut off (CLOSE)"));

        await().atMost(WAIT).until(ensemble::inSync);
        client.create().forPath("/partitioned/after");
        assertThat(written.get()).as("writes went on through the faults").isPositive();
        await().atMost(WAIT).until(ensemble::inSync);
        Set<List<String>> copies = new HashSet<>();
        for (int id = 1; id <= ensemble.size(); id++) {
            try (BatonClient one = TestClients.started(ensemble.connectString(id), Duration.ofSeconds(10))) {
                List<String> children = new ArrayList<>(one.getChildren().forPath("/partitioned"));
                java.util.Collections.sort(children);
                assertThat(children).as("server %d's copy", id).contains("after").hasSizeGreaterThan(written.get());
                copies.add(children);
            }
        }
        assertThat(copies).as("every server holds the same children").hasSize(1);
    }

    @Test
    void partitionFaultsNeedPeerProxies() {
        try (EmbeddedEnsemble direct = EmbeddedEnsemble.builder().nodes(3).build()) {
            assertThatThrownBy(() -> Nemesis.builder(direct, 1).faults(Nemesis.Fault.ISOLATE_LEADER).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("partitions need peerProxies(true)");
        }
    }
}
