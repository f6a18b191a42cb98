package dev.baton.recipes.rwlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.test.ConnectString;
import dev.baton.test.EnsembleTest;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A Curator 5.9 process and a Baton process on one read/write lock exclude each other: writer
 * against writer and writer against readers, in both orders, and the line stays fair across both.
 */
@EnsembleTest
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CuratorInteropTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final Duration BRIEF = Duration.ofMillis(300);

    private CuratorFramework curator;
    /** Curator's locks belong to a thread: each role acquires and releases on its own. */
    private ExecutorService curatorWriterThread;
    private ExecutorService curatorReaderThread;

    @BeforeEach
    void startCurator(@ConnectString String connect) throws Exception {
        curator = CuratorFrameworkFactory.newClient(connect, 10_000, 10_000, new ExponentialBackoffRetry(100, 3));
        curator.start();
        assertThat(curator.blockUntilConnected(20, TimeUnit.SECONDS)).isTrue();
        curatorWriterThread = Executors.newSingleThreadExecutor();
        curatorReaderThread = Executors.newSingleThreadExecutor();
    }

    @AfterEach
    void stopCurator() {
        curatorWriterThread.shutdownNow();
        curatorReaderThread.shutdownNow();
        curator.close();
    }

    private org.apache.curator.framework.recipes.locks.InterProcessReadWriteLock curatorLock(String path) {
        return new org.apache.curator.framework.recipes.locks.InterProcessReadWriteLock(curator, path);
    }

    @Test
    void batonWriterExcludesCuratorsWriterAndReadersUntilItReleases(BatonClient client) throws Exception {
        String path = "/interop/baton-writes";
        InterProcessReadWriteLock baton = new InterProcessReadWriteLock(client, path);
        var theirs = curatorLock(path);
        WriteLease held = baton.writeLock().acquireLease();

        assertThat(tryOn(curatorWriterThread, theirs.writeLock(), BRIEF)).as("Curator's writer sees Baton's").isFalse();
        assertThat(tryOn(curatorReaderThread, theirs.readLock(), BRIEF)).as("Curator's reader sees Baton's writer").isFalse();
        Future<Boolean> curatorWriter = curatorWriterThread.submit(() -> theirs.writeLock().acquire(20, TimeUnit.SECONDS));
        await().atMost(WAIT).until(() -> baton.participantNodes().size() == 2);
        assertThat(curatorWriter).isNotDone();
        held.release();

        assertThat(curatorWriter.get(20, TimeUnit.SECONDS)).isTrue();
        assertThat(baton.writeLock().acquire(Duration.ZERO)).as("Baton's writer sees Curator's").isFalse();
        assertThat(baton.readLock().acquire(Duration.ZERO)).as("Baton's reader sees Curator's writer").isFalse();
        releaseOn(curatorWriterThread, theirs.writeLock());
        assertThat(baton.readLock().acquire(WAIT)).isTrue();
        baton.readLock().release();
    }

    @Test
    void curatorWriterExcludesBatonsWriterAndReadersAndTheLineStaysFair(BatonClient client) throws Exception {
        String path = "/interop/curator-writes";
        InterProcessReadWriteLock baton = new InterProcessReadWriteLock(client, path);
        var theirs = curatorLock(path);
        assertThat(on(curatorWriterThread, () -> theirs.writeLock().acquire(10, TimeUnit.SECONDS))).isTrue();

        assertThat(baton.writeLock().acquire(Duration.ZERO)).isFalse();
        assertThat(baton.readLock().acquire(Duration.ZERO)).isFalse();
        CompletableFuture<ReadLease> batonReader = baton.readLock().acquireAsync();
        await().atMost(WAIT).until(() -> baton.participantNodes().size() == 2);
        CompletableFuture<WriteLease> batonWriter = baton.writeLock().acquireAsync();
        await().atMost(WAIT).until(() -> baton.participantNodes().size() == 3);
        releaseOn(curatorWriterThread, theirs.writeLock());

        ReadLease read = batonReader.get(20, TimeUnit.SECONDS);
        assertThat(batonWriter).as("Baton's writer waits for the reader ahead").isNotDone();
        assertThat(tryOn(curatorReaderThread, theirs.readLock(), BRIEF))
            .as("Curator's reader waits behind Baton's waiting writer").isFalse();
        read.release();
        WriteLease write = batonWriter.get(20, TimeUnit.SECONDS);
        assertThat(tryOn(curatorReaderThread, theirs.readLock(), BRIEF)).isFalse();
        write.release();
        assertThat(tryOn(curatorReaderThread, theirs.readLock(), WAIT)).isTrue();
        releaseOn(curatorReaderThread, theirs.readLock());
    }

    @Test
    void batonReadersExcludeCuratorsWriterAndShareWithCuratorsReaders(BatonClient client) throws Exception {
        String path = "/interop/baton-reads";
        InterProcessReadWriteLock baton = new InterProcessReadWriteLock(client, path);
        var theirs = curatorLock(path);
        ReadLease read = baton.readLock().acquireLease();

        assertThat(tryOn(curatorReaderThread, theirs.readLock(), WAIT)).as("readers of both share the lock").isTrue();
        assertThat(tryOn(curatorWriterThread, theirs.writeLock(), BRIEF)).isFalse();
        Future<Boolean> curatorWriter = curatorWriterThread.submit(() -> theirs.writeLock().acquire(20, TimeUnit.SECONDS));
        await().atMost(WAIT).until(() -> baton.participantNodes().size() == 3);
        read.release();
        assertThat(curatorWriter).as("Curator's reader still holds").isNotDone();
        releaseOn(curatorReaderThread, theirs.readLock());

        assertThat(curatorWriter.get(20, TimeUnit.SECONDS)).isTrue();
        assertThat(baton.readLock().acquire(Duration.ZERO)).isFalse();
        releaseOn(curatorWriterThread, theirs.writeLock());
        await().atMost(WAIT).until(() -> baton.participantNodes().isEmpty());
    }

    @Test
    void curatorReadersExcludeBatonsWriter(BatonClient client) throws Exception {
        String path = "/interop/curator-reads";
        InterProcessReadWriteLock baton = new InterProcessReadWriteLock(client, path);
        var theirs = curatorLock(path);
        assertThat(tryOn(curatorReaderThread, theirs.readLock(), WAIT)).isTrue();

        assertThat(baton.readLock().acquire(Duration.ZERO)).as("Baton reads alongside Curator").isTrue();
        baton.readLock().release();
        assertThat(baton.writeLock().acquire(Duration.ZERO)).isFalse();
        CompletableFuture<WriteLease> batonWriter = baton.writeLock().acquireAsync();
        await().atMost(WAIT).until(() -> baton.participantNodes().size() == 2);
        assertThat(batonWriter).isNotDone();
        releaseOn(curatorReaderThread, theirs.readLock());

        WriteLease write = batonWriter.get(20, TimeUnit.SECONDS);
        assertThat(tryOn(curatorWriterThread, theirs.writeLock(), BRIEF)).isFalse();
        write.release();
    }

    @Test
    void aBatonDowngradeKeepsCuratorsWaitingWriterOutUntilTheReadEnds(BatonClient client) throws Exception {
        String path = "/interop/downgrade";
        InterProcessReadWriteLock baton = new InterProcessReadWriteLock(client, path);
        var theirs = curatorLock(path);
        WriteLease write = baton.writeLock().acquireLease();
        AtomicBoolean batonReading = new AtomicBoolean(true);
        Future<Boolean> curatorWriterCameInWhileBatonRead = curatorWriterThread.submit(() -> {
            theirs.writeLock().acquire();
            return batonReading.get();
        });
        await().atMost(WAIT).until(() -> baton.participantNodes().size() == 2);

        ReadLease read = write.downgrade();
        write.release();
        await().atMost(WAIT).until(() -> baton.participantNodes().size() == 2 && baton.participantNodes().get(0).contains("__READ__"));
        assertThat(tryOn(curatorReaderThread, theirs.writeLock(), BRIEF)).as("Curator sees the downgraded reader").isFalse();
        batonReading.set(false);
        read.release();

        assertThat(curatorWriterCameInWhileBatonRead.get(20, TimeUnit.SECONDS)).as("Curator's writer got in while Baton read")
            .isFalse();
        releaseOn(curatorWriterThread, theirs.writeLock());
        await().atMost(WAIT).until(() -> baton.participantNodes().isEmpty());
    }

    private static boolean tryOn(ExecutorService thread, InterProcessMutex mutex, Duration wait) throws Exception {
        return on(thread, () -> mutex.acquire(wait.toMillis(), TimeUnit.MILLISECONDS));
    }

    private static void releaseOn(ExecutorService thread, InterProcessMutex mutex) throws Exception {
        on(thread, () -> {
            mutex.release();
            return null;
        });
    }

    private static <T> T on(ExecutorService thread, Callable<T> task) throws Exception {
        return thread.submit(task).get(30, TimeUnit.SECONDS);
    }
}
