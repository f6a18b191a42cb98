package dev.baton.recipes.lock.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.framework.BatonClient;
import dev.baton.recipes.lock.InterProcessMutex;
import dev.baton.recipes.lock.InterProcessSemaphoreV2;
import dev.baton.recipes.lock.Lease;
import dev.baton.recipes.lock.LockLease;
import dev.baton.test.EnsembleTest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The examples of docs/locks.md, compiled and run. */
@EnsembleTest
class LocksExampleTest {

    // --- docs/locks.md: "A fenced resource" ---
    /** A store that remembers the largest fencing token it has seen and refuses older writers. */
    static final class FencedStore {
        private final AtomicLong largestToken = new AtomicLong();
        private volatile String value;

        boolean write(String newValue, long fencingToken) {
            long seen = largestToken.getAndAccumulate(fencingToken, Math::max);
            if (fencingToken < seen) {
                return false; // a writer whose lock has passed to someone else since
            }
            value = newValue;
            return true;
        }

        String value() {
            return value;
        }
    }

    // --- docs/locks.md: "Hold a lock through a lease" ---
    static boolean settleInvoices(BatonClient client, FencedStore store) throws InterruptedException {
        InterProcessMutex mutex = new InterProcessMutex(client, "/locks/invoices");
        try (LockLease lease = mutex.acquireLease(Duration.ofSeconds(10))) {
            if (lease == null) {
                return false; // someone else is settling; nothing of our attempt is left behind
            }
            lease.onLost(() -> System.err.println("lost the invoices lock: stop settling"));

            // a write outside ZooKeeper carries the token; the store refuses an older one
            store.write("settled", lease.fencingToken());

            // a write to ZooKeeper is guarded: it commits only while our lock node exists
            lease.guard(client.transaction())
                .setData("/invoices/state", "settled".getBytes(StandardCharsets.UTF_8))
                .commit();
            return true;
        } // closing releases; it throws LockOwnershipLostException if the lease was lost meanwhile
    }
    // --- end of examples ---

    @Test
    void settlingHoldsTheLockWritesWithTheTokenAndReleases(BatonClient client) throws Exception {
        client.create().creatingParentsIfNeeded().forPath("/invoices/state");
        FencedStore store = new FencedStore();

        assertThat(settleInvoices(client, store)).isTrue();

        assertThat(store.value()).isEqualTo("settled");
        assertThat(client.getData().forPath("/invoices/state")).asString(StandardCharsets.UTF_8).isEqualTo("settled");
        assertThat(new InterProcessMutex(client, "/locks/invoices").participantNodes()).isEmpty();
    }

    @Test
    void aStaleHolderIsRefusedByTheFencedStore(BatonClient first, BatonClient second) throws Exception {
        FencedStore store = new FencedStore();
        LockLease old = new InterProcessMutex(first, "/locks/fenced").acquireLease();
        long oldToken = old.fencingToken();
        old.release(); // (or: paused past its session timeout, and the servers gave the lock away)
        LockLease current = new InterProcessMutex(second, "/locks/fenced").acquireLease();

        assertThat(store.write("new", current.fencingToken())).isTrue();
        assertThat(store.write("stale", oldToken)).isFalse();
        assertThat(store.value()).isEqualTo("new");
        current.release();
    }

    @Test
    void aSemaphoreBoundsConcurrentUse(BatonClient client) throws Exception {
        // --- docs/locks.md: "A semaphore" ---
        InterProcessSemaphoreV2 connections = new InterProcessSemaphoreV2(client, "/semaphores/reporting-db", 2);
        try (Lease lease = connections.acquire(Duration.ofSeconds(2))) {
            if (lease != null) {
                assertThat(connections.participantNodes()).contains(lease.nodeName());
            }
        }
        // --- end ---
        assertThat(connections.participantNodes()).isEmpty();
        assertThatThrownBy(() -> new InterProcessSemaphoreV2(client, "/semaphores/none", 0))
            .isInstanceOf(IllegalArgumentException.class);
    }
}
