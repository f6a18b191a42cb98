package dev.baton.recipes.rwlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.framework.contention.OwnershipLostException;
import dev.baton.framework.contention.FencingToken;
import dev.baton.framework.contention.SharedTicket;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.ConnectString;
import dev.baton.test.EnsembleTest;
import dev.baton.test.SessionKiller;
import dev.baton.test.TestClients;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.junit.jupiter.api.Test;

/**
 * The read/write lock in the shared-ticket mode: a process's readers share one read node and hold at
 * once; its writers hand one write node on; a local writer waits for local readers; loss reaches every
 * local holder; a downgrade ends the write node's hand-offs; Curator sees ordinary nodes.
 */
@EnsembleTest
class SharedTicketReadWriteLockTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    EmbeddedEnsemble ensemble;

    @Test
    void readersOfOneProcessShareOneReadNodeAndHoldAtOnce(BatonClient client) throws Exception {
        InterProcessReadWriteLock rw = new InterProcessReadWriteLock(client, "/shared-rw/readers", SharedTicket.defaults());
        ReadLease first = rw.readLock().acquireLease();
        ReadLease second = rw.readLock().acquireLease(Duration.ZERO);
        ReadLease third = rw.readLock().acquireAsync().get(WAIT.toSeconds(), TimeUnit.SECONDS);

        assertThat(second).as("a second local reader holds at once").isNotNull();
        assertThat(rw.participantNodes()).as("one read node for the process").containsExactlyElementsOf(first.nodePaths());
        assertThat(List.of(first.holdToken(), second.holdToken(), third.holdToken())).containsExactly(
            new FencingToken(first.fencingToken(), 0), new FencingToken(first.fencingToken(), 1),
            new FencingToken(first.fencingToken(), 2));
        first.release();
        second.release();
        assertThat(rw.participantNodes()).as("the node stays while a reader holds").hasSize(1);
        third.release();
        await().atMost(WAIT).until(() -> rw.participantNodes().isEmpty());
    }

    @Test
    void aLocalWriterWaitsForLocalReadersAndReadersArrivingAfterTheBudgetQueueBehindIt(BatonClient client) throws Exception {
        InterProcessReadWriteLock rw = new InterProcessReadWriteLock(client, "/shared-rw/writer-waits",
            new SharedTicket(1, Duration.ofMinutes(1)));
        ReadLease reader = rw.readLock().acquireLease();
        CompletableFuture<WriteLease> writer = rw.writeLock().acquireAsync();
        await().atMost(WAIT).until(() -> rw.participantNodes().size() == 2);
        ReadLease joined = rw.readLock().acquireLease(Duration.ZERO); // within budget: joins, and spends it
        assertThat(joined).isNotNull();
        await("the readers see the writer waiting").atMost(WAIT).until(rw::readersStopJoining);
        CompletableFuture<ReadLease> late = rw.readLock().acquireAsync();

        reader.release();
        assertThat(writer).as("the writer waits for the last local reader").isNotDone();
        joined.release();
        WriteLease writing = writer.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertThat(late).as("the late reader queued behind the writer").isNotDone();
        writing.release();
        ReadLease lateLease = late.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertThat(lateLease.holdToken().isAfter(writing.holdToken())).as("a new read node, after the writer").isTrue();
        lateLease.release();
        await().atMost(WAIT).until(() -> rw.participantNodes().isEmpty());
    }

    @Test
    void aDowngradeEndsTheWriteNodesHandOffsSoNoLocalWriterHoldsBesideTheReader(BatonClient client) throws Exception {
        InterProcessReadWriteLock rw = new InterProcessReadWriteLock(client, "/shared-rw/downgrade", SharedTicket.defaults());
        WriteLease write = rw.writeLock().acquireLease();
        CompletableFuture<WriteLease> nextWriter = rw.writeLock().acquireAsync();
        ReadLease read = write.downgrade();
        write.release();

        await().atMost(WAIT).until(() -> rw.participantNodes().size() == 2);
        assertThat(nextWriter).as("the next writer waits behind the downgraded reader").isNotDone();
        read.release();
        WriteLease next = nextWriter.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertThat(next.holdToken().isAfter(write.holdToken())).isTrue();
        assertThat(next.holdToken().handOff()).as("a node of its own").isZero();
        next.release();
        await().atMost(WAIT).until(() -> rw.participantNodes().isEmpty());
    }

    @Test
    void losingTheReadNodeTellsEveryLocalReader() throws Exception {
        try (BatonClient victim = TestClients.started(ensemble.connectString(), Duration.ofSeconds(3))) {
            InterProcessReadWriteLock rw = new InterProcessReadWriteLock(victim, "/shared-rw/loss", SharedTicket.defaults());
            ReadLease first = rw.readLock().acquireLease();
            ReadLease second = rw.readLock().acquireLease();
            AtomicInteger told = new AtomicInteger();
            first.onLost(told::incrementAndGet);
            second.onLost(told::incrementAndGet);

            SessionKiller.expire(victim, ensemble.connectString(), WAIT);

            await().atMost(WAIT).until(() -> told.get() == 2 && !first.isValid() && !second.isValid());
            assertThatThrownBy(first::release).isInstanceOf(OwnershipLostException.class);
            assertThatThrownBy(second::release).isInstanceOf(OwnershipLostException.class);
            ReadLease again = rw.readLock().acquireLease(WAIT);
            assertThat(again.isValid()).isTrue();
            again.release();
        }
    }

    @Test
    void curatorWritersAndASharedTicketProcessExcludeEachOther(BatonClient client, @ConnectString String connect) throws Exception {
        String path = "/shared-rw/interop";
        InterProcessReadWriteLock baton = new InterProcessReadWriteLock(client, path, new SharedTicket(3, Duration.ofMillis(2)));
        AtomicInteger readers = new AtomicInteger();
        AtomicInteger writers = new AtomicInteger();
        AtomicInteger violations = new AtomicInteger();
        try (CuratorFramework curator = CuratorFrameworkFactory.newClient(connect, 10_000, 10_000, new ExponentialBackoffRetry(100, 3))) {
            curator.start();
            assertThat(curator.blockUntilConnected(20, TimeUnit.SECONDS)).isTrue();
            var theirs = new org.apache.curator.framework.recipes.locks.InterProcessReadWriteLock(curator, path);
            List<CompletableFuture<Void>> workers = new ArrayList<>();
            for (int t = 0; t < 3; t++) {
                int thread = t;
                workers.add(CompletableFuture.runAsync(() -> {
                    try {
                        for (int round = 0; round < 20; round++) {
                            boolean write = (round + thread) % 4 == 0;
                            var side = write ? baton.writeLock() : baton.readLock();
                            assertThat(side.acquire(WAIT)).isTrue();
                            enter(write, readers, writers, violations);
                            side.release();
                        }
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                }, command -> new Thread(command).start()));
            }
            AtomicInteger curatorHolds = new AtomicInteger();
            workers.add(CompletableFuture.runAsync(() -> {
                try {
                    for (int round = 0; round < 20; round++) {
                        boolean write = round % 2 == 0;
                        org.apache.curator.framework.recipes.locks.InterProcessMutex side = write ? theirs.writeLock() : theirs.readLock();
                        assertThat(side.acquire(20, TimeUnit.SECONDS)).isTrue();
                        curatorHolds.incrementAndGet();
                        enter(write, readers, writers, violations);
                        side.release();
                    }
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }, command -> new Thread(command).start()));
            CompletableFuture.allOf(workers.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
            assertThat(curatorHolds).hasValue(20);
        }
        assertThat(violations).as("a writer beside anyone else").hasValue(0);
        await().atMost(WAIT).until(() -> baton.participantNodes().isEmpty());
    }

    private static void enter(boolean write, AtomicInteger readers, AtomicInteger writers, AtomicInteger violations) {
        if (write) {
            if (writers.incrementAndGet() != 1 || readers.get() != 0) {
                violations.incrementAndGet();
            }
            Thread.yield();
            writers.decrementAndGet();
        } else {
            readers.incrementAndGet();
            if (writers.get() != 0) {
                violations.incrementAndGet();
            }
            Thread.yield();
            readers.decrementAndGet();
        }
    }
}
