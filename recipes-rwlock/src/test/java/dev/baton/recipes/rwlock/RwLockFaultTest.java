package dev.baton.recipes.rwlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ErrorPolicy;
import dev.baton.framework.contention.OwnershipLostException;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.EnsembleTest;
import dev.baton.test.LockFaults;
import dev.baton.test.SessionKiller;
import dev.baton.test.TestClients;
import dev.baton.test.history.ReadersWriters;
import dev.baton.test.history.ReadersWriters.Mode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Session expiry and connection faults: loss is loud, waiters get their turn, and no fault leaves a node behind. */
@EnsembleTest
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class RwLockFaultTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final Duration SHORT_SESSION = Duration.ofSeconds(3);

    EmbeddedEnsemble ensemble;

    @Test
    void writersSessionExpiringWhileReadersWaitLetsThemInAndTheWriterLearnsIt(BatonClient readersClient) throws Exception {
        String path = "/fault/writer-expires";
        ReadersWriters history = new ReadersWriters();
        try (BatonClient victim = TestClients.started(ensemble.connectString(), SHORT_SESSION)) {
            WriteLease write = new InterProcessReadWriteLock(victim, path).writeLock().acquireLease();
            var writing = history.entered("writer", Mode.WRITE, write.fencingToken());
            AtomicInteger lostCalls = new AtomicInteger();
            write.onLost(() -> {
                history.lost(writing);
                lostCalls.incrementAndGet();
            });
            InterProcessReadWriteLock readers = new InterProcessReadWriteLock(readersClient, path);
            List<CompletableFuture<ReadLease>> waiting = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                waiting.add(readers.readLock().acquireAsync());
            }
            await().atMost(WAIT).until(() -> readers.participantNodes().size() == 4);

            SessionKiller.expire(victim, ensemble.connectString(), WAIT);

            for (int i = 0; i < waiting.size(); i++) {
                ReadLease read = waiting.get(i).get(20, TimeUnit.SECONDS);
                var in = history.entered("reader-" + i, Mode.READ, read.fencingToken());
                assertThat(read.fencingToken()).isGreaterThan(write.fencingToken());
                history.exiting(in);
                read.release();
            }
            await().atMost(WAIT).until(() -> !write.isValid() && lostCalls.get() == 1);
            assertThat(write.lossReason()).isPresent();
            assertThatThrownBy(write::release).isInstanceOf(OwnershipLostException.class)
                .hasMessageContaining("was lost before it was released");
            history.checkTurns().assertOk();
            await().atMost(WAIT).until(() -> readers.participantNodes().isEmpty());
        }
    }

    /**
     * A holder frozen while the servers end its session wakes and releases before its client
     * notices: the release cannot show that the hold lasted, so it throws instead of returning.
     */
    @Test
    void aWriteLeaseReleasedBeforeItsClientHeardOfTheExpiryIsLoud() throws Exception {
        LockFaults.releaseUnheardAfterTheSessionEndedIsLoud(ensemble, ErrorPolicy.STANDARD, client -> {
            WriteLease write = new InterProcessReadWriteLock(client, "/fault/unheard-write").writeLock().acquireLease();
            return write::release;
        });
    }

    @Test
    void aReadHoldReleasedBeforeItsClientHeardOfTheExpiryIsLoud() throws Exception {
        LockFaults.releaseUnheardAfterTheSessionEndedIsLoud(ensemble, ErrorPolicy.SESSION_ONLY, client -> {
            InterProcessReadWriteLock rw = new InterProcessReadWriteLock(client, "/fault/unheard-read");
            rw.readLock().acquire();
            return rw.readLock()::release;
        });
    }

    @Test
    void downgradeOfAWriteHoldLostToExpiryFailsAndLeavesNoNode(BatonClient observerClient) throws Exception {
        String path = "/fault/downgrade-lost";
        InterProcessReadWriteLock observer = new InterProcessReadWriteLock(observerClient, path);
        try (BatonClient victim = TestClients.started(ensemble.connectString(), SHORT_SESSION)) {
            InterProcessReadWriteLock rw = new InterProcessReadWriteLock(victim, path);
            rw.writeLock().acquire();
            WriteLease lease = new InterProcessReadWriteLock(victim, path + "-lease").writeLock().acquireLease();

            SessionKiller.expire(victim, ensemble.connectString(), WAIT);
            await().atMost(WAIT).until(() -> victim.connectionState().isConnected() && !lease.isValid());

            assertThatThrownBy(rw.readLock()::acquire).as("the thread-bound downgrade of a lost write hold")
                .isInstanceOf(OwnershipLostException.class).hasMessageContaining("cannot be downgraded");
            assertThatThrownBy(lease::downgrade).isInstanceOf(OwnershipLostException.class).hasMessageContaining("lost");
            assertThat(rw.readLock().isAcquiredInThisProcess()).isFalse();
            assertThat(observer.participantNodes()).as("no read node was made for the lost hold").isEmpty();
            assertThatThrownBy(rw.writeLock()::release).isInstanceOf(OwnershipLostException.class);
            assertThatThrownBy(lease::release).isInstanceOf(OwnershipLostException.class);
            assertThat(rw.writeLock().acquire(WAIT)).as("the lock can be taken again on the new session").isTrue();
            rw.writeLock().release();
        }
    }

    @Test
    void lostReplyDuringAcquireLeavesNoDuplicateNode(BatonClient holderClient) throws Exception {
        String path = "/fault/lost-reply";
        InterProcessReadWriteLock holder = new InterProcessReadWriteLock(holderClient, path);
        LockFaults.lostCreateReplyLeavesNoDuplicateNode(ensemble, holder.writeLock().acquireLease(), holder::participantNodes,
            client -> new InterProcessReadWriteLock(client, path).readLock().acquireAsync());
    }

    @Test
    void acquisitionTimingOutWhileDisconnectedLeavesNoOrphan(BatonClient holderClient) throws Exception {
        String path = "/fault/orphan";
        InterProcessReadWriteLock holder = new InterProcessReadWriteLock(holderClient, path);
        LockFaults.acquisitionTimingOutWhileDisconnectedLeavesNoOrphan(ensemble, holder.readLock().acquireLease(),
            holder::participantNodes, (client, timeout) -> new InterProcessReadWriteLock(client, path).writeLock().acquireAsync(timeout));
    }
}
