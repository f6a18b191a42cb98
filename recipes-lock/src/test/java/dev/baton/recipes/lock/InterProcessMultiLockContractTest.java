package dev.baton.recipes.lock;

import dev.baton.framework.BatonClient;
import dev.baton.framework.InterProcessLock;
import dev.baton.test.EnsembleTest;
import dev.baton.test.LockContract;
import java.util.List;

/** A multi-lock over a mutex and a semaphore mutex is one lock, and keeps the contract. */
@EnsembleTest
class InterProcessMultiLockContractTest extends LockContract {
    @Override
    protected InterProcessLock newLock(BatonClient client, String path) {
        return new InterProcessMultiLock(List.of(new InterProcessMutex(client, path + "/a"),
            new InterProcessSemaphoreMutex(client, path + "/b")));
    }
}
