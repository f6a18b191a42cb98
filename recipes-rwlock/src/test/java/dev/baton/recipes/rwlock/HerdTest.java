package dev.baton.recipes.rwlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.test.CountingClient;
import dev.baton.test.CountingClient.Read;
import dev.baton.test.EnsembleTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.Watcher.Event.EventType;
import org.junit.jupiter.api.Test;

/**
 * A release wakes only those it lets in: twenty readers behind a writer hear one event each when
 * it leaves, and nothing at all while writers ahead of it come and go.
 */
@EnsembleTest
class HerdTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final int READERS = 20;

    @Test
    void twentyReadersBehindOneWriterAreReleasedByOneEventEachAndNoListing(BatonClient holderClient,
            BatonClient readersClient) throws Exception {
        String path = "/herd/one-writer";
        InterProcessReadWriteLock observer = new InterProcessReadWriteLock(holderClient, path);
        WriteLease writer = observer.writeLock().acquireLease();
        CountingClient readers = CountingClient.wrap(readersClient);
        List<CompletableFuture<ReadLease>> waiting = readersBehind(readers, path);
        await().atMost(WAIT).until(() -> observer.participantNodes().size() == READERS + 1);
        readers.quiesce(WAIT);
        readers.reset();

        writer.release();

        CompletableFuture.allOf(waiting.toArray(CompletableFuture[]::new)).get(20, TimeUnit.SECONDS);
        readers.quiesce(WAIT);
        assertThat(readers.events(EventType.NodeDeleted)).as("watch events delivered to the 20 readers").isEqualTo(READERS);
        assertThat(readers.reads(Read.GET_CHILDREN)).as("listings by woken readers: the hand-off needs none").isZero();
        releaseAll(waiting);
        await().atMost(WAIT).until(() -> observer.participantNodes().isEmpty());
    }

    @Test
    void readersHearNothingWhileTheWritersAheadOfTheNearestOneComeAndGo(BatonClient holderClient, BatonClient writerClient,
            BatonClient readersClient) throws Exception {
        String path = "/herd/two-writers";
        InterProcessReadWriteLock observer = new InterProcessReadWriteLock(holderClient, path);
        WriteLease first = observer.writeLock().acquireLease();
        CountingClient second = CountingClient.wrap(writerClient);
        CompletableFuture<WriteLease> secondWriter = new InterProcessReadWriteLock(second.client(), path).writeLock().acquireAsync();
        await().atMost(WAIT).until(() -> observer.participantNodes().size() == 2);
        CountingClient readers = CountingClient.wrap(readersClient);
        List<CompletableFuture<ReadLease>> waiting = readersBehind(readers, path);
        await().atMost(WAIT).until(() -> observer.participantNodes().size() == READERS + 2);
        readers.quiesce(WAIT);
        second.quiesce(WAIT);
        readers.reset();
        second.reset();

        first.release();

        WriteLease held = secondWriter.get(20, TimeUnit.SECONDS);
        readers.quiesce(WAIT);
        second.quiesce(WAIT);
        assertThat(readers.events(EventType.NodeDeleted)).as("events to readers when a writer they do not watch leaves").isZero();
        assertThat(readers.reads(Read.GET_CHILDREN)).isZero();
        assertThat(second.events(EventType.NodeDeleted)).as("the one writer behind it is told").isEqualTo(1);
        assertThat(second.reads(Read.GET_CHILDREN)).as("and lists once (its predecessor was a writer)").isEqualTo(1);
        assertThat(waiting).noneMatch(CompletableFuture::isDone);

        held.release();

        CompletableFuture.allOf(waiting.toArray(CompletableFuture[]::new)).get(20, TimeUnit.SECONDS);
        readers.quiesce(WAIT);
        assertThat(readers.events(EventType.NodeDeleted)).as("one event per reader").isEqualTo(READERS);
        assertThat(readers.reads(Read.GET_CHILDREN)).as("one listing per reader (a writer was ahead of the one it watched)")
            .isEqualTo(READERS);
        releaseAll(waiting);
        await().atMost(WAIT).until(() -> observer.participantNodes().isEmpty());
    }

    private static List<CompletableFuture<ReadLease>> readersBehind(CountingClient readers, String path) {
        List<CompletableFuture<ReadLease>> waiting = new ArrayList<>();
        for (int i = 0; i < READERS; i++) {
            waiting.add(new InterProcessReadWriteLock(readers.client(), path).readLock().acquireAsync());
        }
        return waiting;
    }

    private static void releaseAll(List<CompletableFuture<ReadLease>> leases) throws Exception {
        for (CompletableFuture<ReadLease> lease : leases) {
            lease.get().release();
        }
    }
}
