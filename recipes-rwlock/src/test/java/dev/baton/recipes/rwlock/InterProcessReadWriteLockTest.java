package dev.baton.recipes.rwlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.framework.InvalidPathException;
import dev.baton.framework.contention.OwnershipLostException;
import dev.baton.test.EnsembleTest;
import dev.baton.test.history.ReadersWriters;
import dev.baton.test.history.ReadersWriters.Mode;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;

/** Readers together, writers alone, in order of arrival; re-entrancy, upgrade and downgrade; tokens; clean-up. */
@EnsembleTest
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class InterProcessReadWriteLockTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    private static String path(TestInfo test) {
        return "/rw/" + test.getTestMethod().orElseThrow().getName();
    }

    /** Records the lease's entry when it arrives (after the grant), as the history requires. */
    private static <L extends dev.baton.framework.contention.Grant> CompletableFuture<ReadersWriters.Hold> entering(
            ReadersWriters history, String actor, Mode mode, CompletableFuture<L> lease) {
        return lease.thenApply(l -> history.entered(actor, mode, l.fencingToken()));
    }

    @Test
    void readersHoldTogetherAndAWriterWaitsForAllOfThem(BatonClient a, BatonClient b, TestInfo test) throws Exception {
        String path = path(test);
        ReadersWriters history = new ReadersWriters();
        ReadLease first = new InterProcessReadWriteLock(a, path).readLock().acquireLease();
        var firstIn = history.entered("reader-1", Mode.READ, first.fencingToken());
        ReadLease second = new InterProcessReadWriteLock(b, path).readLock().acquireLease(Duration.ZERO);
        assertThat(second).as("a second reader gets in at once").isNotNull();
        var secondIn = history.entered("reader-2", Mode.READ, second.fencingToken());
        InterProcessReadWriteLock observer = new InterProcessReadWriteLock(a, path);
        assertThat(observer.writeLock().acquire(Duration.ZERO)).as("no writer while readers hold").isFalse();

        CompletableFuture<WriteLease> writer = new InterProcessReadWriteLock(b, path).writeLock().acquireAsync();
        CompletableFuture<ReadersWriters.Hold> writerIn = entering(history, "writer", Mode.WRITE, writer);
        await().atMost(WAIT).until(() -> observer.participantNodes().size() == 3);
        history.exiting(secondIn);
        second.release();
        history.exiting(firstIn);
        first.release();

        history.exiting(writerIn.get(20, TimeUnit.SECONDS));
        assertThat(writer.get().fencingToken()).isGreaterThan(second.fencingToken());
        writer.get().release();
        history.check().assertOk();
        assertThat(history.mostConcurrentReaders()).isEqualTo(2);
        await().atMost(WAIT).until(() -> observer.participantNodes().isEmpty());
    }

    @Test
    void aWaitingWriterBlocksReadersThatArriveAfterIt(BatonClient a, BatonClient b, BatonClient c, TestInfo test)
            throws Exception {
        String path = path(test);
        ReadersWriters history = new ReadersWriters();
        InterProcessReadWriteLock late = new InterProcessReadWriteLock(c, path);
        ReadLease early = new InterProcessReadWriteLock(a, path).readLock().acquireLease();
        var earlyIn = history.entered("early-reader", Mode.READ, early.fencingToken());
        CompletableFuture<WriteLease> writer = new InterProcessReadWriteLock(b, path).writeLock().acquireAsync();
        CompletableFuture<ReadersWriters.Hold> writerIn = entering(history, "writer", Mode.WRITE, writer);
        await().atMost(WAIT).until(() -> late.participantNodes().size() == 2);

        assertThat(late.readLock().acquire(Duration.ZERO)).as("a reader behind a waiting writer waits").isFalse();
        CompletableFuture<ReadLease> lateReader = late.readLock().acquireAsync();
        CompletableFuture<ReadersWriters.Hold> lateIn = entering(history, "late-reader", Mode.READ, lateReader);
        await().atMost(WAIT).until(() -> late.participantNodes().size() == 3);
        assertThat(writer).isNotDone();
        history.exiting(earlyIn);
        early.release();

        history.exiting(writerIn.get(20, TimeUnit.SECONDS));
        writer.get().release();
        history.exiting(lateIn.get(20, TimeUnit.SECONDS));
        lateReader.get().release();
        history.check().assertOk();
    }

    @Test
    void bothSidesAreReentrantPerThreadAndKeepTheirToken(BatonClient client, TestInfo test) throws Exception {
        InterProcessReadWriteLock rw = new InterProcessReadWriteLock(client, path(test));
        rw.readLock().acquire();
        long readToken = rw.readLock().fencingToken();
        assertThat(rw.readLock().acquire(Duration.ZERO)).isTrue();
        assertThat(rw.readLock().fencingToken()).isEqualTo(readToken);
        rw.readLock().release();
        assertThat(rw.readLock().isHeldByCurrentThread()).isTrue();
        rw.readLock().release();
        assertThat(rw.readLock().isAcquiredInThisProcess()).isFalse();

        rw.writeLock().acquire();
        long writeToken = rw.writeLock().fencingToken();
        assertThat(writeToken).isGreaterThan(readToken);
        rw.writeLock().acquire();
        rw.writeLock().release();
        assertThat(rw.writeLock().isHeldByCurrentThread()).isTrue();
        assertThat(rw.participantNodes()).hasSize(1);
        rw.writeLock().release();
        assertThatThrownBy(rw.writeLock()::release).isInstanceOf(IllegalMonitorStateException.class)
            .hasMessageContaining("does not hold the write lock of " + rw.path());
        await().atMost(WAIT).until(() -> rw.participantNodes().isEmpty());
    }

    @Test
    void aReadHolderAskingForTheWriteLockFailsAtOnceAndLeavesNothing(BatonClient client, TestInfo test) throws Exception {
        InterProcessReadWriteLock rw = new InterProcessReadWriteLock(client, path(test));
        rw.readLock().acquire();

        // (were these to wait, the class's timeout would fail the test)
        assertThatThrownBy(rw.writeLock()::acquire).isInstanceOf(LockUpgradeException.class)
            .hasMessageContaining("holds the read lock of " + rw.path()).hasMessageContaining("upgrading is not supported");
        assertThatThrownBy(() -> rw.writeLock().acquire(Duration.ofMinutes(5))).isInstanceOf(LockUpgradeException.class);
        assertThatThrownBy(() -> rw.writeLock().acquire(Duration.ZERO)).as("a look is refused too (rwlock.md)")
            .isInstanceOf(LockUpgradeException.class);
        assertThatThrownBy(() -> rw.writeLock().acquireLease()).isInstanceOf(LockUpgradeException.class);
        // a try too: unlike java.util.concurrent's ReentrantReadWriteLock, whose tryLock() answers false here
        assertThatThrownBy(() -> rw.writeLock().asLock().tryLock()).isInstanceOf(LockUpgradeException.class);
        assertThat(rw.participantNodes()).as("no write node was created").hasSize(1);
        assertThat(rw.writeLock().isAcquiredInThisProcess()).isFalse();

        // asynchronously the request just queues: it completes once this thread lets go of its read hold
        CompletableFuture<WriteLease> queued = rw.writeLock().acquireAsync();
        await().atMost(WAIT).until(() -> rw.participantNodes().size() == 2);
        rw.readLock().release();
        queued.get(20, TimeUnit.SECONDS).release();
        await().atMost(WAIT).until(() -> rw.participantNodes().isEmpty());
    }

    /** rwlock.md: a read lease belongs to no thread, so the thread that took it is not refused the write lock, it waits. */
    @Test
    void aThreadHoldingAReadLeaseIsNotRefusedTheWriteLockButWaitsForTheLease(BatonClient client, TestInfo test)
            throws Exception {
        InterProcessReadWriteLock rw = new InterProcessReadWriteLock(client, path(test));
        ReadLease read = rw.readLock().acquireLease();

        assertThat(rw.writeLock().acquire(Duration.ofMillis(300))).as("no LockUpgradeException: it waited, for the lease")
            .isFalse();
        CompletableFuture<Boolean> writing = CompletableFuture.supplyAsync(() -> {
            try {
                boolean granted = rw.writeLock().acquire(Duration.ofSeconds(20)); // another thread asks, this one lets go
                if (granted) {
                    rw.writeLock().release();
                }
                return granted;
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        await().atMost(WAIT).until(() -> rw.participantNodes().size() == 2);
        assertThat(writing).as("behind the read lease").isNotDone();
        read.release();
        assertThat(writing.get(20, TimeUnit.SECONDS)).as("granted once the lease was released").isTrue();
        await().atMost(WAIT).until(() -> rw.participantNodes().isEmpty());
    }

    @Test
    void aReaderReEntersAtOnceWhileAWriterWaitsButAnotherThreadQueuesBehindTheWriter(BatonClient a, BatonClient b,
            TestInfo test) throws Exception {
        InterProcessReadWriteLock cache = new InterProcessReadWriteLock(a, path(test));
        cache.readLock().acquire();
        CompletableFuture<WriteLease> writer = new InterProcessReadWriteLock(b, path(test)).writeLock().acquireAsync();
        await().atMost(WAIT).until(() -> cache.participantNodes().size() == 2);

        // a refresh that calls a helper taking the read lock again must not wait behind the writer (its own hold is ahead)
        assertThat(cache.readLock().acquire(Duration.ZERO)).as("the holding thread re-enters at once").isTrue();
        CompletableFuture<Boolean> otherThread = CompletableFuture.supplyAsync(() -> {
            try {
                return cache.readLock().acquire(Duration.ZERO);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        assertThat(otherThread.get(20, TimeUnit.SECONDS)).as("a new reader is behind the waiting writer, even in this process")
            .isFalse();
        cache.readLock().release();
        assertThat(writer).as("one of two acquisitions released: still held").isNotDone();
        cache.readLock().release();
        writer.get(20, TimeUnit.SECONDS).release();
        await().atMost(WAIT).until(() -> cache.participantNodes().isEmpty());
    }

    @Test
    void closingTheClientWhileItWritesAndReadsTellsBothHoldsAndLetsTheNextWriterIn(BatonClient closing, BatonClient other,
            TestInfo test) throws Exception {
        InterProcessReadWriteLock rw = new InterProcessReadWriteLock(closing, path(test));
        WriteLease write = rw.writeLock().acquireLease();
        ReadLease read = write.downgrade();
        List<String> told = new java.util.concurrent.CopyOnWriteArrayList<>();
        write.onLost(() -> told.add("write"));
        read.onLost(() -> told.add("read"));
        CompletableFuture<WriteLease> next = new InterProcessReadWriteLock(other, path(test)).writeLock().acquireAsync();
        await().atMost(WAIT).until(() -> rw.participantNodes().size() == 3);

        closing.close();

        WriteLease nextHold = next.get(20, TimeUnit.SECONDS);
        await("both holds are told").atMost(WAIT).until(() -> told.size() == 2);
        assertThat(told).containsExactlyInAnyOrder("write", "read");
        assertThat(write.isValid() || read.isValid()).isFalse();
        assertThatThrownBy(read::release).isInstanceOf(OwnershipLostException.class);
        assertThatThrownBy(write::close).isInstanceOf(OwnershipLostException.class);
        assertThatThrownBy(write::downgrade).isInstanceOf(OwnershipLostException.class);
        assertThat(nextHold.isValid()).isTrue();
        nextHold.release();
    }

    @Test
    void aDowngradeIsImmediateAndKeepsTheWritersBehindItOut(BatonClient a, BatonClient b, BatonClient c, TestInfo test)
            throws Exception {
        String path = path(test);
        ReadersWriters history = new ReadersWriters();
        InterProcessReadWriteLock mine = new InterProcessReadWriteLock(a, path);
        InterProcessReadWriteLock probe = new InterProcessReadWriteLock(c, path);
        mine.writeLock().acquire();
        var writeIn = history.entered("downgrader", Mode.WRITE, mine.writeLock().fencingToken());
        CompletableFuture<WriteLease> nextWriter = new InterProcessReadWriteLock(b, path).writeLock().acquireAsync();
        CompletableFuture<ReadersWriters.Hold> nextWriterIn = entering(history, "next-writer", Mode.WRITE, nextWriter);
        // two clients' creates may land in either order: the reader must arrive after the writer
        await().atMost(WAIT).until(() -> probe.participantNodes().size() == 2);
        CompletableFuture<ReadLease> laterReader = new InterProcessReadWriteLock(c, path).readLock().acquireAsync();
        CompletableFuture<ReadersWriters.Hold> laterReaderIn = entering(history, "later-reader", Mode.READ, laterReader);
        await().atMost(WAIT).until(() -> probe.participantNodes().size() == 3);

        assertThat(mine.readLock().acquire(Duration.ZERO)).as("the write holder reads at once").isTrue();
        var readIn = history.entered("downgrader", Mode.READ, mine.readLock().fencingToken());
        assertThat(mine.readLock().fencingToken()).as("the downgraded read keeps the write's place and token")
            .isEqualTo(mine.writeLock().fencingToken());
        history.exiting(writeIn);
        mine.writeLock().release();

        await().atMost(WAIT).until(() -> probe.participantNodes().size() == 3);
        assertThat(probe.participantNodes().get(0)).as("the read node sits in the write node's place")
            .matches(".*/_c_[0-9a-f-]{36}-__READ__\\d{10}");
        assertThat(probe.writeLock().acquire(Duration.ZERO)).isFalse();
        assertThat(probe.readLock().acquire(Duration.ZERO)).as("a reader behind the waiting writer still waits").isFalse();
        assertThat(mine.readLock().isHeldByCurrentThread()).isTrue();
        history.exiting(readIn);
        mine.readLock().release();

        history.exiting(nextWriterIn.get(20, TimeUnit.SECONDS));
        nextWriter.get().release();
        history.exiting(laterReaderIn.get(20, TimeUnit.SECONDS));
        laterReader.get().release();
        history.check().assertOk();
        await().atMost(WAIT).until(() -> probe.participantNodes().isEmpty());
    }

    @Test
    void aDowngradeLetsTheReadersWaitingBehindTheWriterIn(BatonClient a, BatonClient b, TestInfo test) throws Exception {
        String path = path(test);
        InterProcessReadWriteLock mine = new InterProcessReadWriteLock(a, path);
        mine.writeLock().acquire();
        CompletableFuture<ReadLease> waiting = new InterProcessReadWriteLock(b, path).readLock().acquireAsync();
        await().atMost(WAIT).until(() -> mine.participantNodes().size() == 2);

        mine.readLock().acquire();
        mine.writeLock().release();

        ReadLease other = waiting.get(20, TimeUnit.SECONDS);
        assertThat(mine.readLock().isHeldByCurrentThread()).as("both read now").isTrue();
        assertThat(other.isValid()).isTrue();
        other.release();
        mine.readLock().release();
        await().atMost(WAIT).until(() -> mine.participantNodes().isEmpty());
    }

    @Test
    void aWriteLeaseDowngradesToAReadLeaseInItsPlaceAndWithItsToken(BatonClient client, TestInfo test) throws Exception {
        InterProcessReadWriteLock rw = new InterProcessReadWriteLock(client, path(test));
        WriteLease write = rw.writeLock().acquireLease();
        String writeNode = write.nodePaths().get(0);
        assertThat(write.fencingToken()).as("the write token is the czxid of its node")
            .isEqualTo(client.checkExists().forPath(writeNode).getCzxid());

        ReadLease read = write.downgrade();

        String readNode = read.nodePaths().get(0);
        assertThat(readNode.substring(readNode.length() - 10)).isEqualTo(writeNode.substring(writeNode.length() - 10));
        assertThat(read.fencingToken()).isEqualTo(write.fencingToken());
        assertThat(rw.readLock().isAcquiredInThisProcess()).isTrue();
        write.release();
        assertThat(read.isValid()).isTrue();
        assertThatThrownBy(write::downgrade).isInstanceOf(OwnershipLostException.class).hasMessageContaining("released");
        assertThat(rw.participantNodes()).containsExactly(readNode);
        read.release();
        await().atMost(WAIT).until(() -> rw.participantNodes().isEmpty());
    }

    @Test
    void aCancelledDowngradeLeavesNoReadNode(BatonClient client, TestInfo test) throws Exception {
        InterProcessReadWriteLock rw = new InterProcessReadWriteLock(client, path(test));
        rw.writeLock().acquire();
        List<String> writeOnly = rw.participantNodes();
        for (int i = 0; i < 5; i++) {
            CompletableFuture<ReadLease> downgrading = rw.readLock().acquireAsync();
            if (!downgrading.cancel(true)) {
                downgrading.get().release(); // it had already completed: give it back the ordinary way
            }
            await().atMost(WAIT).until(() -> rw.participantNodes().equals(writeOnly));
        }
        ReadLease read = rw.readLock().acquireAsync().get(20, TimeUnit.SECONDS);
        assertThat(read.fencingToken()).as("an asynchronous downgrade too").isEqualTo(rw.writeLock().fencingToken());
        read.release();
        rw.writeLock().release();
        assertThat(rw.readLock().isAcquiredInThisProcess()).isFalse();
    }

    @Test
    void readTokensLieBetweenTheWritersBeforeAndAfter(BatonClient a, BatonClient b, TestInfo test) throws Exception {
        String path = path(test);
        InterProcessReadWriteLock rw = new InterProcessReadWriteLock(a, path);
        WriteLease before = rw.writeLock().acquireLease();
        CompletableFuture<ReadLease> reader = new InterProcessReadWriteLock(b, path).readLock().acquireAsync();
        await().atMost(WAIT).until(() -> rw.participantNodes().size() == 2);
        CompletableFuture<WriteLease> after = rw.writeLock().acquireAsync();
        await().atMost(WAIT).until(() -> rw.participantNodes().size() == 3);
        before.release();
        ReadLease read = reader.get(20, TimeUnit.SECONDS);
        read.release();
        WriteLease next = after.get(20, TimeUnit.SECONDS);

        assertThat(read.fencingToken()).isGreaterThan(before.fencingToken()).isLessThan(next.fencingToken());
        next.release();
    }

    @Test
    void nodesFollowCuratorsLayout(BatonClient client, TestInfo test) throws Exception {
        InterProcessReadWriteLock rw = new InterProcessReadWriteLock(client, path(test), "reporting-7".getBytes());
        ReadLease read = rw.readLock().acquireLease();
        CompletableFuture<WriteLease> write = rw.writeLock().acquireAsync();
        await().atMost(WAIT).until(() -> rw.participantNodes().size() == 2);

        assertThat(rw.participantNodes().get(0)).matches(rw.path() + "/_c_[0-9a-f-]{36}-__READ__\\d{10}");
        assertThat(rw.participantNodes().get(1)).matches(rw.path() + "/_c_[0-9a-f-]{36}-__WRIT__\\d{10}");
        assertThat(new String(client.getData().forPath(rw.participantNodes().get(1)))).isEqualTo("reporting-7");
        read.release();
        write.get(20, TimeUnit.SECONDS).release();
    }

    @Test
    void abandonedAcquisitionsLeaveNoNode(BatonClient a, BatonClient b, TestInfo test) throws Exception {
        String path = path(test);
        InterProcessReadWriteLock holder = new InterProcessReadWriteLock(a, path);
        InterProcessReadWriteLock other = new InterProcessReadWriteLock(b, path);
        WriteLease held = holder.writeLock().acquireLease();

        CompletableFuture<ReadLease> cancelled = other.readLock().acquireAsync();
        await().atMost(WAIT).until(() -> holder.participantNodes().size() == 2);
        cancelled.cancel(true);
        await().atMost(WAIT).until(() -> holder.participantNodes().size() == 1);

        assertThat(other.writeLock().acquireAsync(Duration.ofMillis(200)).get(20, TimeUnit.SECONDS)).isNull();
        assertThat(other.readLock().acquire(Duration.ofMillis(200))).isFalse();
        await().atMost(WAIT).until(() -> holder.participantNodes().equals(held.nodePaths()));

        CompletableFuture<Throwable> outcome = new CompletableFuture<>();
        Thread waiter = new Thread(() -> {
            try {
                other.readLock().acquire();
                outcome.complete(null);
            } catch (Throwable e) {
                outcome.complete(e);
            }
        }, "interrupted-reader");
        waiter.start();
        await().atMost(WAIT).until(() -> holder.participantNodes().size() == 2);
        waiter.interrupt();
        assertThat(outcome.get(20, TimeUnit.SECONDS)).isInstanceOf(InterruptedException.class);
        await().atMost(WAIT).until(() -> holder.participantNodes().equals(held.nodePaths()));
        held.release();
    }

    @Test
    void lockViewsAndBadInput(BatonClient client, TestInfo test) throws Exception {
        InterProcessReadWriteLock rw = new InterProcessReadWriteLock(client, path(test));
        Lock read = rw.readLock().asLock();
        Lock write = rw.writeLock().asLock();
        assertThat(read.tryLock()).isTrue();
        assertThat(new InterProcessReadWriteLock(client, path(test)).writeLock().asLock().tryLock()).isFalse();
        read.unlock();
        write.lock();
        write.unlock();

        assertThatThrownBy(() -> new InterProcessReadWriteLock(client, "relative")).isInstanceOf(InvalidPathException.class)
            .hasMessageContaining("relative");
        assertThatThrownBy(() -> new InterProcessReadWriteLock(client, "/")).isInstanceOf(InvalidPathException.class);
        assertThatThrownBy(() -> new InterProcessReadWriteLock(null, "/x")).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> rw.readLock().acquire(Duration.ofSeconds(-1))).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("PT-1S");
        assertThatThrownBy(rw.readLock()::fencingToken).isInstanceOf(IllegalStateException.class);
        assertThat(rw.toString()).contains(rw.path());
        assertThat(rw.writeLock().toString()).contains("write lock of " + rw.path()).contains("not held");
    }

    @Test
    void curatorsIsOwnedByCurrentThreadAnswersForEachSide(BatonClient client) throws Exception {
        InterProcessReadWriteLock rw = new InterProcessReadWriteLock(client, "/rwlock/curator-names");
        rw.writeLock().acquire();
        try {
            assertThat(rw.writeLock().isOwnedByCurrentThread()).isTrue();
            assertThat(rw.readLock().isOwnedByCurrentThread()).isFalse();
        } finally {
            rw.writeLock().release();
        }
        assertThat(rw.writeLock().isOwnedByCurrentThread()).isFalse();
    }
}
