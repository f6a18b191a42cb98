package dev.baton.recipes.lock;

import dev.baton.framework.contention.SharedTicket;
import dev.baton.framework.contention.FencingToken;
import dev.baton.framework.BatonClient;
import dev.baton.framework.InterProcessLock;
import dev.baton.test.EnsembleTest;
import dev.baton.test.LockContract;
import dev.baton.test.PairTokenLock;

/**
 * The mutual-exclusion contract in the shared-ticket mode. The contract's threads of one client share
 * one lock object, so here they share one node and hand the lock on in memory.
 *
 * <p>The contract records {@code fencingToken()} as a {@code long} and requires it to grow with every
 * hold. In this mode the {@code long} is the node's zxid, shared by the local holds on one node; the
 * strictly growing token is the pair {@link FencingToken}, which the contract sees through
 * {@link PairTokenLock}'s order-keeping projection.
 */
@EnsembleTest
class SharedTicketMutexContractTest extends LockContract {
    @Override
    protected InterProcessLock newLock(BatonClient client, String path) {
        return pairTokens(new InterProcessMutex(client, path, SharedTicket.defaults()));
    }

    /** {@code lock} with the contract's token the projection of the calling thread's {@link HandleLock#holdToken()}. */
    static PairTokenLock pairTokens(HandleLock lock) {
        return new PairTokenLock(lock, () -> {
            if (!lock.isHeldByCurrentThread()) {
                return null;
            }
            FencingToken token = lock.holdToken();
            return new long[] {token.zxid(), token.handOff()};
        });
    }
}
