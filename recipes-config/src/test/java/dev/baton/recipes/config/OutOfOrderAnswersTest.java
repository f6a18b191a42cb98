package dev.baton.recipes.config;

import static dev.baton.recipes.config.ConfigStoreTest.WAIT;
import static dev.baton.recipes.config.ConfigStoreTest.started;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.framework.GetDataBuilder;
import dev.baton.test.EnsembleTest;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A store over a client that is not Baton's own (here a wrapper, as a decorator of a user's
 * would be) gets its read answers completed on pool threads, in any order: the store must still
 * apply them in the order it sent them, or an older answer lands after a newer one and the
 * snapshot goes back to an earlier release.
 */
@EnsembleTest
class OutOfOrderAnswersTest {
    @Test
    void answersThatCompleteOutOfOrderNeverTakeTheStoreBack(BatonClient writerClient, BatonClient readerClient) throws Exception {
        String base = "/config/out-of-order";
        ScheduledExecutorService delays = Executors.newScheduledThreadPool(4);
        try (ConfigStore writer = started(writerClient, base);
             ConfigStore reader = started(shuffling(readerClient, delays), base)) {
            List<Long> seen = new CopyOnWriteArrayList<>();
            List<Integer> values = new CopyOnWriteArrayList<>();
            reader.watchKey("k", update -> {
                seen.add(update.release());
                values.add(Integer.parseInt(update.snapshot().getString("k").orElse("-1")));
            });
            long last = 0;
            for (int i = 1; i <= 150; i++) {
                last = writer.release().set("k", Integer.toString(i)).commit().number();
            }
            long end = last;
            await("the reader ends on the last release").atMost(WAIT).until(() -> reader.snapshot().release() == end);
            assertThat(reader.getString("k")).contains("150");
            assertThat(seen).as("releases seen by the listener never go back").isSorted();
            assertThat(values).as("values seen by the listener never go back").isSorted();
        } finally {
            delays.shutdownNow();
        }
    }

    /** {@code client} with every asynchronous read answered after a random 0-15 ms, on another thread. */
    private static BatonClient shuffling(BatonClient client, ScheduledExecutorService delays) {
        return (BatonClient) Proxy.newProxyInstance(BatonClient.class.getClassLoader(), new Class<?>[] {BatonClient.class},
            (proxy, method, args) -> {
                Object result = invoke(client, method, args);
                if (method.getName().equals("getData") && result instanceof GetDataBuilder builder) {
                    return shuffling(builder, delays);
                }
                return result;
            });
    }

    private static GetDataBuilder shuffling(GetDataBuilder builder, ScheduledExecutorService delays) {
        return (GetDataBuilder) Proxy.newProxyInstance(GetDataBuilder.class.getClassLoader(), new Class<?>[] {GetDataBuilder.class},
            (proxy, method, args) -> {
                Object result = invoke(builder, method, args);
                if (result instanceof GetDataBuilder next) {
                    return shuffling(next, delays);
                }
                if (result instanceof CompletableFuture<?> answer) {
                    CompletableFuture<Object> later = new CompletableFuture<>();
                    answer.whenComplete((value, failure) -> delays.schedule(() -> {
                        if (failure != null) {
                            later.completeExceptionally(failure);
                        } else {
                            later.complete(value);
                        }
                    }, ThreadLocalRandom.current().nextInt(16), TimeUnit.MILLISECONDS));
                    return later;
                }
                return result;
            });
    }

    private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
