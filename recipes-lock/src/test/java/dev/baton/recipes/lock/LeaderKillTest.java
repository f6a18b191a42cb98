package dev.baton.recipes.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.framework.BatonException;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.EnsembleTest;
import dev.baton.test.TestClients;
import dev.baton.test.history.Event;
import dev.baton.test.history.History;
import dev.baton.test.history.MutualExclusion;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Killing the ZooKeeper leader while three processes contend for a lock breaks neither exclusion nor progress. */
@EnsembleTest(nodes = 3)
class LeaderKillTest {
    private static final String PATH = "/leader-kill/lock";

    EmbeddedEnsemble ensemble;

    @Test
    void exclusionAndProgressSurviveTheLeadersDeath() throws Exception {
        History history = new History();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger lostOnRelease = new AtomicInteger();
        List<BatonClient> clients = new ArrayList<>();
        List<CompletableFuture<Void>> workers = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                BatonClient client = TestClients.started(ensemble.connectString(), Duration.ofSeconds(10));
                clients.add(client);
                String actor = "process-" + i;
                InterProcessMutex mutex = new InterProcessMutex(client, PATH);
                workers.add(CompletableFuture.runAsync(() -> contend(mutex, actor, history, stop, lostOnRelease),
                    task -> new Thread(task, actor).start()));
            }
            await().atMost(Duration.ofSeconds(30)).until(() -> history.count(Event.Op.ACQUIRED) >= 10);
            BatonClient mainClient = TestClients.started(ensemble.connectString(), Duration.ofSeconds(10));
            clients.add(mainClient);
            LockLease held = new InterProcessMutex(mainClient, PATH).acquireLease(Duration.ofSeconds(30));
            history.acquired("main", PATH, held.fencingToken());

            int leader = ensemble.leaderId();
            ensemble.stop(leader);

            // every server drops its clients while a new leader is elected: the suspended holder is told
            await().atMost(Duration.ofSeconds(30)).until(() -> !held.isValid());
            await().atMost(Duration.ofSeconds(30)).until(() -> mainClient.connectionState().isConnected());
            history.released("main", PATH);
            assertThatThrownBy(held::release).isInstanceOf(LockOwnershipLostException.class);
            long beforeKill = history.count(Event.Op.ACQUIRED);

            await().atMost(Duration.ofSeconds(60)).until(() -> history.count(Event.Op.ACQUIRED) >= beforeKill + 15);
            stop.set(true);
            CompletableFuture.allOf(workers.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
            ensemble.restart(leader);
        } finally {
            stop.set(true);
            clients.forEach(BatonClient::close);
        }

        MutualExclusion.check(history.events()).assertOk();
        assertThat(history.events().stream().filter(e -> e.op() == Event.Op.ACQUIRED).map(Event::actor).distinct())
            .as("every process got the lock").hasSize(4);
    }

    /** Acquire, record, release, until told to stop; failures of the ensemble are retried as a user would. */
    private static void contend(InterProcessMutex mutex, String actor, History history, AtomicBoolean stop, AtomicInteger lost) {
        while (!stop.get()) {
            try {
                if (!mutex.acquire(Duration.ofSeconds(30))) {
                    continue;
                }
            } catch (BatonException e) {
                continue; // the ensemble was electing a leader for longer than the retry policy waits: try again
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            history.acquired(actor, PATH, mutex.fencingToken());
            Thread.yield();
            history.released(actor, PATH);
            try {
                mutex.release();
            } catch (LockOwnershipLostException e) {
                // its connection was suspended while it held the lock (its server died); the node is given back anyway
                lost.incrementAndGet();
            }
        }
    }
}
