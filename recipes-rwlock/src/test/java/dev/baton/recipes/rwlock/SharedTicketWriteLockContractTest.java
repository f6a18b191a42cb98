package dev.baton.recipes.rwlock;

import dev.baton.framework.BatonClient;
import dev.baton.framework.InterProcessLock;
import dev.baton.framework.contention.FencingToken;
import dev.baton.framework.contention.SharedTicket;
import dev.baton.test.EnsembleTest;
import dev.baton.test.LockContract;
import dev.baton.test.PairTokenLock;

/**
 * The write side in the shared-ticket mode is a mutual-exclusion lock like any other: the contract's
 * threads of one client share one write node and hand it on in memory. The contract sees the pair
 * token ({@link WriteLease#holdToken()}) through {@link PairTokenLock}'s order-keeping projection.
 */
@EnsembleTest
class SharedTicketWriteLockContractTest extends LockContract {
    @Override
    protected InterProcessLock newLock(BatonClient client, String path) {
        InterProcessReadWriteLock.WriteLock writes = new InterProcessReadWriteLock(client, path, SharedTicket.defaults()).writeLock();
        return new PairTokenLock(writes, () -> {
            if (!writes.isHeldByCurrentThread()) {
                return null;
            }
            FencingToken token = writes.holdToken();
            return new long[] {token.zxid(), token.handOff()};
        });
    }
}
