package dev.baton.recipes.lock;

import dev.baton.framework.BatonClient;
import dev.baton.framework.InterProcessLock;
import dev.baton.test.EnsembleTest;
import dev.baton.test.LockContract;

@EnsembleTest
class InterProcessMutexContractTest extends LockContract {
    @Override
    protected InterProcessLock newLock(BatonClient client, String path) {
        return new InterProcessMutex(client, path);
    }
}
