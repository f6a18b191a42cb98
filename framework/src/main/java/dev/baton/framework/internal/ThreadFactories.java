package dev.baton.framework.internal;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/** Named daemon threads for a client's executors. */
final class ThreadFactories {
    private ThreadFactories() {
    }

    static ThreadFactory daemon(String name) {
        AtomicInteger count = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, count.get() == 0 ? name : name + "-" + count.get());
            count.incrementAndGet();
            t.setDaemon(true);
            return t;
        };
    }

    static ForkJoinPool.ForkJoinWorkerThreadFactory daemonWorkers(String name) {
        AtomicInteger count = new AtomicInteger();
        return pool -> {
            ForkJoinWorkerThread t = ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(pool);
            t.setName(name + "-" + count.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
