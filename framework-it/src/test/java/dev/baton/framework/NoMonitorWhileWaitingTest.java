package dev.baton.framework;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.framework.contention.Contention;
import dev.baton.framework.contention.ContentionRule;
import dev.baton.framework.contention.Ticket;
import dev.baton.recipes.election.LeaderLatch;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.ChaosProxy;
import dev.baton.test.EnsembleTest;
import dev.baton.test.TestClients;
import java.lang.management.ManagementFactory;
import java.lang.management.MonitorInfo;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * No Baton monitor is held, and no Baton code waits on a monitor ({@code Object.wait}), while a
 * thread waits for ZooKeeper: on Java 21 to 23 either pins a virtual thread's carrier for the
 * whole round trip. (Java 24 and later no longer pin on monitors, so JFR's
 * {@code jdk.VirtualThreadPinned} on the machine's Java 25 cannot see this; the thread dumps can,
 * on any Java.)
 *
 * <p>How: blocking acquisitions and waits for a watched condition run on platform threads
 * through a proxy that delays every packet, so that each round trip lasts; a sampler takes the
 * threads' dumps with their locked monitors the whole time and records every waiting thread
 * that holds a monitor taken in a {@code dev.baton} frame, or waits in {@code Object.wait} called
 * from one. A sample can only find a fault, never invent one.
 */
@EnsembleTest
class NoMonitorWhileWaitingTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final byte[] NONE = new byte[0];

    EmbeddedEnsemble ensemble;

    @Test
    void threadsWaitingForTheServersHoldNoBatonMonitor() throws Exception {
        Set<String> faults = ConcurrentHashMap.newKeySet();
        AtomicBoolean done = new AtomicBoolean();
        try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1));
             BatonClient client = TestClients.started(BatonClient.builder().connectString(proxy.connectString()))) {
            proxy.delay(Duration.ofMillis(20));
            List<Thread> workers = new ArrayList<>();
            for (int w = 0; w < 3; w++) {
                workers.add(new Thread(() -> contend(client), "monitor-check-lock-" + w));
            }
            workers.add(new Thread(() -> awaitNodes(client), "monitor-check-signal"));
            Set<Long> ids = ConcurrentHashMap.newKeySet();
            workers.add(new Thread(() -> awaitLeadership(client, ids, faults), "monitor-check-latch"));
            Thread sampler = new Thread(() -> sample(ids, faults, done), "monitor-check-sampler");
            for (Thread worker : workers) {
                worker.start();
                ids.add(worker.getId());
            }
            sampler.start();
            for (Thread worker : workers) {
                worker.join(WAIT.toMillis() * 2);
                assertThat(worker.isAlive()).as("%s finished", worker.getName()).isFalse();
            }
            done.set(true);
            sampler.join();
        }
        assertThat(faults).as("threads waiting for ZooKeeper with a Baton monitor held or in Object.wait").isEmpty();
    }

    private static void contend(BatonClient client) {
        Contention mutex = Contention.of(client, "/monitors/lock", "lock-", ContentionRule.mutex());
        try {
            for (int i = 0; i < 8; i++) {
                Ticket held = mutex.acquireBlocking(NONE, WAIT);
                mutex.release(held).get();
            }
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /** Waits, the way recipes do, for nodes another thread makes one by one. */
    private static void awaitNodes(BatonClient client) {
        try {
            client.create().creatingParentsIfNeeded().forPath("/monitors/signal");
            Thread maker = new Thread(() -> {
                try {
                    for (int i = 0; i < 8; i++) {
                        client.create().forPath("/monitors/signal/n" + i);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "monitor-check-maker");
            maker.start();
            for (int i = 1; i <= 8; i++) {
                int count = i;
                boolean met = ChangeSignal.awaitCondition(client,
                    watcher -> client.getChildren().usingWatcher(watcher).forPath("/monitors/signal").size() >= count,
                    Deadline.after(WAIT));
                assertThat(met).isTrue();
            }
            maker.join();
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    /**
     * Waits in {@link LeaderLatch#await(Duration)} behind a leader that steps down only once the
     * waiting thread is seen parked, a few rounds. A failed round is a fault too.
     */
    private static void awaitLeadership(BatonClient client, Set<Long> ids, Set<String> faults) {
        try {
            for (int round = 0; round < 3; round++) {
                try (LeaderLatch first = new LeaderLatch(client, "/monitors/latch", "first-" + round);
                     LeaderLatch second = new LeaderLatch(client, "/monitors/latch", "second-" + round)) {
                    first.start();
                    assertThat(first.await(WAIT)).isTrue();
                    second.start();
                    CompletableFuture<Boolean> led = new CompletableFuture<>();
                    Thread waiter = new Thread(() -> {
                        try {
                            led.complete(second.await(WAIT));
                        } catch (InterruptedException | RuntimeException e) {
                            led.completeExceptionally(e);
                        }
                    }, "monitor-check-latch-waiter-" + round);
                    waiter.start();
                    ids.add(waiter.getId());
                    Deadline parked = Deadline.after(WAIT);
                    while (waiter.getState() != Thread.State.WAITING && waiter.getState() != Thread.State.TIMED_WAITING
                           && !parked.hasPassed()) {
                        LockSupport.parkNanos(1_000_000);
                    }
                    if (parked.hasPassed()) {
                        // the sampler saw no wait of this round: say so rather than pass on what it did not see
                        faults.add("round " + round + ": the waiter did not wait for the latch within " + WAIT);
                    }
                    first.close();
                    // not waiter.join(): Thread.join waits in Object.wait, which this test looks for
                    if (!led.get(WAIT.toSeconds(), TimeUnit.SECONDS)) {
                        faults.add("round " + round + ": the second latch did not lead once the first closed");
                    }
                }
            }
        } catch (InterruptedException | ExecutionException | TimeoutException | RuntimeException | AssertionError e) {
            faults.add("the latch rounds failed: " + e);
        }
    }

    /**
     * A monitor seen held by a waiting thread counts once the same holding has lasted 10 ms over
     * consecutive samples: a round trip behind the proxy lasts 40 ms or more, while a thread that
     * parks for a moment on a contended lock inside a short critical section (ZooKeeper's send
     * queue, say) is not waiting for the servers.
     */
    private static void sample(Set<Long> ids, Set<String> faults, AtomicBoolean done) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        Map<String, Long> heldSince = new HashMap<>();
        while (!done.get()) {
            long now = System.nanoTime();
            Set<String> seen = new HashSet<>();
            long[] watched = ids.stream().mapToLong(Long::longValue).toArray();
            for (ThreadInfo info : threads.getThreadInfo(watched, true, false)) {
                if (info == null) {
                    continue;
                }
                Thread.State state = info.getThreadState();
                if (state != Thread.State.WAITING && state != Thread.State.TIMED_WAITING) {
                    continue;
                }
                for (MonitorInfo held : info.getLockedMonitors()) {
                    if (held.getLockedStackFrame().getClassName().startsWith("dev.baton.")) {
                        String key = info.getThreadId() + "/" + held.getIdentityHashCode() + "/" + held.getLockedStackFrame();
                        seen.add(key);
                        long since = heldSince.computeIfAbsent(key, k -> now);
                        if (now - since >= TimeUnit.MILLISECONDS.toNanos(10)) {
                            faults.add("holds " + held + " taken at " + held.getLockedStackFrame() + " while waiting:\n" + stack(info));
                        }
                    }
                }
                StackTraceElement[] stack = info.getStackTrace();
                for (int i = 0; i + 1 < stack.length; i++) {
                    if (stack[i].getClassName().equals("java.lang.Object") && stack[i].getMethodName().startsWith("wait")) {
                        StackTraceElement caller = Arrays.stream(stack, i + 1, stack.length)
                            .filter(f -> !f.getClassName().startsWith("java.")).findFirst().orElse(null);
                        if (caller != null && caller.getClassName().startsWith("dev.baton.")) {
                            faults.add("Object.wait from " + caller + ":\n" + stack(info));
                        }
                    }
                }
            }
            heldSince.keySet().retainAll(seen);
            // a sample every millisecond: each round trip lasts 40 ms or more behind the proxy
            LockSupport.parkNanos(1_000_000);
        }
    }

    private static String stack(ThreadInfo info) {
        return Arrays.stream(info.getStackTrace()).limit(12).map(f -> "    at " + f).collect(Collectors.joining("\n"));
    }
}
