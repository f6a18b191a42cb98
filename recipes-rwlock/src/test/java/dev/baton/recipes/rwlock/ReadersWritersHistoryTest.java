package dev.baton.recipes.rwlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.test.ConnectString;
import dev.baton.test.EnsembleTest;
import dev.baton.test.TestClients;
import dev.baton.test.history.ReadersWriters;
import dev.baton.test.history.ReadersWriters.Mode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Many threads of several clients reading and writing, thread-bound and through leases, with
 * downgrades: judged afterwards from the recorded history (a writer alone, readers together,
 * every conflicting pair in line order).
 */
@EnsembleTest
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class ReadersWritersHistoryTest {
    private static final Duration PATIENCE = Duration.ofSeconds(30);
    private static final String PATH = "/rw/history";

    @Test
    void mixedReadersAndWritersKeepExclusionAndTurns(@ConnectString String connect) throws Exception {
        ReadersWriters history = new ReadersWriters();
        List<BatonClient> clients = new ArrayList<>();
        List<CompletableFuture<Void>> workers = new ArrayList<>();
        try {
            for (int c = 0; c < 3; c++) {
                BatonClient client = TestClients.started(connect, Duration.ofSeconds(10));
                clients.add(client);
                InterProcessReadWriteLock rw = new InterProcessReadWriteLock(client, PATH);
                for (int t = 0; t < 3; t++) {
                    String actor = "client-" + c + "/thread-" + t;
                    long seed = c * 10L + t;
                    workers.add(CompletableFuture.runAsync(() -> work(rw, actor, new Random(seed), history), daemon(actor)));
                }
            }
            CompletableFuture.allOf(workers.toArray(CompletableFuture[]::new)).get(80, TimeUnit.SECONDS);

            history.check().assertOk();
            assertThat(history.entries(Mode.WRITE)).isGreaterThan(0);
            assertThat(history.entries(Mode.READ)).isGreaterThan(history.entries(Mode.WRITE));
            InterProcessReadWriteLock observer = new InterProcessReadWriteLock(clients.get(0), PATH);
            await().atMost(PATIENCE).until(() -> observer.participantNodes().isEmpty());
        } finally {
            clients.forEach(BatonClient::close);
        }
    }

    /** Twelve rounds: mostly reads, some writes, some writes that downgrade, thread-bound or by lease. */
    private static void work(InterProcessReadWriteLock rw, String actor, Random random, ReadersWriters history) {
        try {
            for (int round = 0; round < 12; round++) {
                int pick = random.nextInt(10);
                if (pick < 7) {
                    read(rw, actor, random.nextBoolean(), history);
                } else if (pick < 9) {
                    write(rw, actor, history);
                } else {
                    writeThenDowngrade(rw, actor, history);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(actor + " was interrupted", e);
        }
    }

    private static void read(InterProcessReadWriteLock rw, String actor, boolean byLease, ReadersWriters history)
            throws InterruptedException {
        if (byLease) {
            ReadLease lease = rw.readLock().acquireLease(PATIENCE);
            assertThat(lease).as(actor + " read lease").isNotNull();
            var in = history.entered(actor, Mode.READ, lease.fencingToken());
            Thread.yield();
            history.exiting(in);
            lease.release();
        } else {
            assertThat(rw.readLock().acquire(PATIENCE)).as(actor + " read").isTrue();
            var in = history.entered(actor, Mode.READ, rw.readLock().fencingToken());
            Thread.yield();
            history.exiting(in);
            rw.readLock().release();
        }
    }

    private static void write(InterProcessReadWriteLock rw, String actor, ReadersWriters history) throws InterruptedException {
        assertThat(rw.writeLock().acquire(PATIENCE)).as(actor + " write").isTrue();
        var in = history.entered(actor, Mode.WRITE, rw.writeLock().fencingToken());
        Thread.yield();
        history.exiting(in);
        rw.writeLock().release();
    }

    private static void writeThenDowngrade(InterProcessReadWriteLock rw, String actor, ReadersWriters history)
            throws InterruptedException {
        WriteLease write = rw.writeLock().acquireLease(PATIENCE);
        assertThat(write).as(actor + " write lease").isNotNull();
        var writing = history.entered(actor, Mode.WRITE, write.fencingToken());
        ReadLease read = write.downgrade();
        var reading = history.entered(actor, Mode.READ, read.fencingToken());
        history.exiting(writing);
        write.release();
        Thread.yield();
        history.exiting(reading);
        read.release();
    }

    private static java.util.concurrent.Executor daemon(String name) {
        return task -> {
            Thread thread = new Thread(task, name);
            thread.setDaemon(true);
            thread.start();
        };
    }
}
