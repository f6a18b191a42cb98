package dev.baton.recipes.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.framework.GetDataBuilder;
import dev.baton.framework.retry.RetryNTimes;
import dev.baton.test.ConnectString;
import dev.baton.test.EnsembleTest;
import dev.baton.test.SessionKiller;
import dev.baton.test.TestClients;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The promoted mode's lock only spaces out the updaters; every write is still a compare-and-set on
 * the counter's version. So when the lock's hold is lost during an update (its session ended),
 * nothing written can be wrong — a stale write is refused by the version — and an update that was
 * applied must be reported as applied, not turned into an {@code OwnershipLostException} by the
 * release of the lost hold (a caller that retries on that exception counts twice).
 */
@EnsembleTest
class DistributedAtomicLongLostLockTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    @ConnectString
    String connect;

    @Test
    void anIncrementAppliedAfterItsLockWasLostIsReportedAsAppliedAndCountsOnce(BatonClient other) throws Exception {
        String path = "/counters/lost-lock";
        new DistributedAtomicLong(other, path, new RetryNTimes(0, Duration.ZERO)).initialize(0L);
        try (BatonClient real = TestClients.started(connect, Duration.ofSeconds(10))) {
            AtomicInteger reads = new AtomicInteger();
            // the first read is overtaken by another writer (so the optimistic write loses and the update
            // is promoted to the lock); right after the second, under the lock, the lock's session ends
            BatonClient view = readsThen(real, () -> {
                switch (reads.incrementAndGet()) {
                    case 1 -> new DistributedAtomicLong(other, path, new RetryNTimes(0, Duration.ZERO)).forceSet(100L);
                    case 2 -> {
                        long lockSession = real.sessionId();
                        SessionKiller.expire(real, connect, WAIT);
                        await("a new session").atMost(WAIT)
                            .until(() -> real.connectionState().isConnected() && real.sessionId() != lockSession);
                    }
                    default -> { }
                }
            });
            DistributedAtomicLong counter = new DistributedAtomicLong(view, path, new RetryNTimes(0, Duration.ZERO),
                PromotedToLock.builder().lockPath(path + "-lock").timeout(WAIT).retryPolicy(new RetryNTimes(10, Duration.ZERO)).build());

            AtomicValue<Long> result = counter.increment();

            assertThat(reads.get()).as("promoted to the lock: read again under it").isGreaterThanOrEqualTo(2);
            assertThat(result).as("applied, and reported as applied").isEqualTo(new AtomicValue<>(true, 100L, 101L));
            assertThat(new DistributedAtomicLong(other, path, new RetryNTimes(0, Duration.ZERO)).get().postValue())
                .as("counted once").isEqualTo(101L);
        }
    }

    @FunctionalInterface
    private interface Step {
        void run() throws Exception;
    }

    /** A view of {@code real} that runs {@code after} after each blocking read of a node's data and stat. */
    private static BatonClient readsThen(BatonClient real, Step after) {
        return (BatonClient) Proxy.newProxyInstance(BatonClient.class.getClassLoader(), new Class<?>[] {BatonClient.class},
            (self, method, args) -> {
                Object result = invoke(real, method, args);
                return method.getName().equals("getData") ? readsThen((GetDataBuilder) result, after) : result;
            });
    }

    private static GetDataBuilder readsThen(GetDataBuilder builder, Step after) {
        Object[] self = new Object[1];
        self[0] = Proxy.newProxyInstance(GetDataBuilder.class.getClassLoader(), new Class<?>[] {GetDataBuilder.class},
            (proxy, method, args) -> {
                Object result = invoke(builder, method, args);
                if (method.getName().equals("forPathWithStat")) {
                    after.run();
                }
                return result == builder ? self[0] : result;
            });
        return (GetDataBuilder) self[0];
    }

    private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
