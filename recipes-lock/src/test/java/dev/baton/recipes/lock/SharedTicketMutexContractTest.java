package dev.baton.recipes.lock;

import dev.baton.framework.BatonClient;
import dev.baton.framework.InterProcessLock;
import dev.baton.test.EnsembleTest;
import dev.baton.test.LockContract;
import java.time.Duration;

/**
 * The mutual-exclusion contract in the shared-ticket mode. The contract's threads of one client share
 * one lock object, so here they share one node and hand the lock on in memory.
 *
 * <p>The contract records {@code fencingToken()} as a {@code long} and requires it to grow with every
 * hold. In this mode the {@code long} is the node's zxid, shared by the local holds on one node; the
 * strictly growing token is the pair {@link FencingToken}. So the lock under test reports the pair
 * projected onto a {@code long} that keeps its order: the zxid's low 40 bits above 20 bits of
 * hand-off number. The projection is exact here (a test ensemble of epoch 1..255, fewer than 2^32
 * transactions, fewer than 2^20 hand-offs per node) and refuses loudly otherwise.
 */
@EnsembleTest
class SharedTicketMutexContractTest extends LockContract {
    @Override
    protected InterProcessLock newLock(BatonClient client, String path) {
        return new PairTokens(new InterProcessMutex(client, path, SharedTicket.defaults()));
    }

    /** The mutex, with {@link #fencingToken()} the order-keeping projection of {@link InterProcessMutex#holdToken()}. */
    private record PairTokens(InterProcessMutex mutex) implements InterProcessLock {
        @Override
        public void acquire() throws InterruptedException {
            mutex.acquire();
        }

        @Override
        public boolean acquire(Duration timeout) throws InterruptedException {
            return mutex.acquire(timeout);
        }

        @Override
        public void release() {
            mutex.release();
        }

        @Override
        public boolean isAcquiredInThisProcess() {
            return mutex.isAcquiredInThisProcess();
        }

        @Override
        public long fencingToken() {
            // another thread's or a lease's hold: only its zxid is known here, so the projection takes
            // hand-off 0, the smallest pair on that node (a "later than" check gets no easier); it throws
            // as the contract expects when nothing is held
            FencingToken token = mutex.isHeldByCurrentThread() ? mutex.holdToken() : new FencingToken(mutex.fencingToken(), 0);
            if (token.zxid() >>> 40 != 0 || token.handOff() >>> 20 != 0) {
                throw new AssertionError("token " + token + " does not fit the test's projection");
            }
            return token.zxid() << 20 | token.handOff();
        }
    }
}
