package dev.baton.recipes.rwlock;

import dev.baton.framework.BatonClient;
import dev.baton.framework.InterProcessLock;
import dev.baton.test.EnsembleTest;
import dev.baton.test.LockContract;

/** The write side is a mutual-exclusion lock like any other. */
@EnsembleTest
class WriteLockContractTest extends LockContract {
    @Override
    protected InterProcessLock newLock(BatonClient client, String path) {
        return new InterProcessReadWriteLock(client, path).writeLock();
    }
}
