package dev.baton.recipes.lock;

import dev.baton.framework.BatonClient;
import dev.baton.framework.InterProcessLock;
import dev.baton.test.EnsembleTest;
import dev.baton.test.LockContract;

@EnsembleTest
class InterProcessSemaphoreMutexContractTest extends LockContract {
    @Override
    protected InterProcessLock newLock(BatonClient client, String path) {
        return new InterProcessSemaphoreMutex(client, path);
    }

    @Override
    protected boolean reentrant() {
        return false;
    }
}
