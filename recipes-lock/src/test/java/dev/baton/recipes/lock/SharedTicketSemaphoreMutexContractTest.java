package dev.baton.recipes.lock;

import dev.baton.framework.contention.SharedTicket;
import dev.baton.framework.BatonClient;
import dev.baton.framework.InterProcessLock;
import dev.baton.test.EnsembleTest;
import dev.baton.test.LockContract;

/**
 * The mutual-exclusion contract for the semaphore mutex in the shared-ticket mode: the contract's
 * threads of one client share one lease node and hand it on in memory (tokens as in
 * {@link SharedTicketMutexContractTest}).
 */
@EnsembleTest
class SharedTicketSemaphoreMutexContractTest extends LockContract {
    @Override
    protected InterProcessLock newLock(BatonClient client, String path) {
        return SharedTicketMutexContractTest.pairTokens(new InterProcessSemaphoreMutex(client, path, SharedTicket.defaults()));
    }

    @Override
    protected boolean reentrant() {
        return false;
    }
}
