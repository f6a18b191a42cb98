package dev.baton.recipes.rwlock.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.framework.BatonClient;
import dev.baton.recipes.rwlock.InterProcessReadWriteLock;
import dev.baton.recipes.rwlock.LockUpgradeException;
import dev.baton.recipes.rwlock.ReadLease;
import dev.baton.recipes.rwlock.WriteLease;
import dev.baton.test.EnsembleTest;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The examples of docs/rwlock.md, compiled and run. */
@EnsembleTest
class RwLockExampleTest {

    // --- docs/rwlock.md: "A fenced catalog" ---
    /**
     * A store guarded by a read/write lock's tokens. It remembers the largest write token it has
     * seen: a writer with a smaller one, or a reader with a smaller one, was overtaken by a later
     * writer while it was paused, and is refused. Read tokens are never compared with each other.
     */
    static final class FencedCatalog {
        private long largestWriteToken;
        private String content = "";

        synchronized boolean write(String newContent, long writeToken) {
            if (writeToken < largestWriteToken) {
                return false; // an older writer: the lock has passed on since
            }
            largestWriteToken = writeToken;
            content = newContent;
            return true;
        }

        synchronized String read(long readToken) {
            if (readToken < largestWriteToken) {
                throw new IllegalStateException("stale reader: a writer got in after it lost its read lock");
            }
            return content;
        }
    }

    // --- docs/rwlock.md: "Read and write" ---
    static String lookUp(InterProcessReadWriteLock rw, FencedCatalog catalog) throws InterruptedException {
        rw.readLock().acquire();                      // many readers at once, never with a writer
        try {
            return catalog.read(rw.readLock().fencingToken());
        } finally {
            rw.readLock().release();
        }
    }

    static boolean publish(InterProcessReadWriteLock rw, FencedCatalog catalog, String content)
            throws InterruptedException {
        try (WriteLease lease = rw.writeLock().acquireLease(Duration.ofSeconds(10))) {
            if (lease == null) {
                return false;                         // timed out; nothing of the attempt is left behind
            }
            return catalog.write(content, lease.fencingToken());
        }                                             // closing releases (and throws if the lease was lost)
    }

    // --- docs/rwlock.md: "Downgrade" ---
    static String publishAndVerify(InterProcessReadWriteLock rw, FencedCatalog catalog, String content)
            throws InterruptedException {
        WriteLease write = rw.writeLock().acquireLease();
        ReadLease read;
        try {
            catalog.write(content, write.fencingToken());
            read = write.downgrade();                 // at once: the read hold takes the write hold's place
        } finally {
            write.release();                          // readers waiting behind us get in; writers still wait
        }
        try (read) {
            return catalog.read(read.fencingToken()); // nobody wrote in between
        }
    }
    // --- end of examples ---

    @Test
    void readersAndWritersThroughTheExamples(BatonClient a, BatonClient b) throws Exception {
        FencedCatalog catalog = new FencedCatalog();
        InterProcessReadWriteLock mine = new InterProcessReadWriteLock(a, "/locks/catalog");
        InterProcessReadWriteLock theirs = new InterProcessReadWriteLock(b, "/locks/catalog");

        assertThat(publish(mine, catalog, "v1")).isTrue();
        assertThat(lookUp(theirs, catalog)).isEqualTo("v1");
        assertThat(publishAndVerify(theirs, catalog, "v2")).isEqualTo("v2");
        assertThat(lookUp(mine, catalog)).isEqualTo("v2");
        assertThat(mine.participantNodes()).isEmpty();
    }

    @Test
    void aReaderOvertakenByALaterWriterIsRefusedByTheCatalog(BatonClient a, BatonClient b) throws Exception {
        FencedCatalog catalog = new FencedCatalog();
        InterProcessReadWriteLock rw = new InterProcessReadWriteLock(a, "/locks/catalog-stale");
        ReadLease reader = rw.readLock().acquireLease();
        CompletableFuture<WriteLease> writer = new InterProcessReadWriteLock(b, "/locks/catalog-stale").writeLock().acquireAsync();
        long staleToken = reader.fencingToken();
        reader.release();                             // as if its session had expired during a long pause
        try (WriteLease write = writer.get(20, TimeUnit.SECONDS)) {
            catalog.write("v3", write.fencingToken());
        }
        assertThatThrownBy(() -> catalog.read(staleToken)).hasMessageContaining("stale reader");
    }

    // --- docs/rwlock.md: "No upgrade" ---
    @Test
    void upgradingIsRefusedAtOnce(BatonClient client) throws Exception {
        InterProcessReadWriteLock rw = new InterProcessReadWriteLock(client, "/locks/no-upgrade");
        boolean refused = false;
        rw.readLock().acquire();
        try {
            rw.writeLock().acquire();                 // would wait for our own read hold forever
        } catch (LockUpgradeException e) {
            refused = true;
            rw.readLock().release();                  // let go of the read lock, then ask for the write lock
            rw.writeLock().acquire();
        }
        assertThat(refused).isTrue();
        assertThat(rw.writeLock().isHeldByCurrentThread()).isTrue();
        rw.writeLock().release();
    }
}
