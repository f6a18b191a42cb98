package dev.baton.test;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.fail;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ClientClosedException;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * Closes a client under a blocking call that waits through it, and asserts what its user relies
 * on: the call ends promptly with {@link ClientClosedException}, not at its timeout (a call
 * without one would wait for a reconnect that never comes), and not with another failure.
 *
 * <p>The call runs on a thread of its own; once {@code waiting} holds (the call is in its wait:
 * its watch is set, say, as {@link OneShotWatches} shows), the client is closed, and the call has
 * {@link #PROMPTLY} to end. A call still running then is interrupted, so a test that finds it hung
 * leaves no thread behind.
 *
 * <pre>{@code
 * CloseUnderWait.endsWithClientClosed(client, () -> OneShotWatches.EXISTS.on(client).contains(path), barrier::waitOnBarrier);
 * }</pre>
 */
public final class CloseUnderWait {
    /** How long a waiting call may take to end once its client is closed. */
    public static final Duration PROMPTLY = Duration.ofSeconds(5);
    private static final Duration TO_START_WAITING = Duration.ofSeconds(30);

    /** A blocking call that waits through the client. */
    @FunctionalInterface
    public interface Wait {
        /**
         * Waits.
         *
         * @throws Exception however the call ends badly
         */
        void run() throws Exception;
    }

    private CloseUnderWait() {
    }

    /**
     * Runs {@code wait}, closes {@code client} once {@code waiting} holds, and asserts that the call then ends within
     * {@link #PROMPTLY} with a {@link ClientClosedException}.
     *
     * @param client the client the call waits through; closed here
     * @param waiting whether the call is in its wait now
     * @param wait the call
     * @return the exception the call ended with, for more assertions (its message, say)
     * @throws Exception if the test thread is interrupted, or {@code waiting} fails
     */
    public static ClientClosedException endsWithClientClosed(BatonClient client, Callable<Boolean> waiting, Wait wait)
        throws Exception {
        Objects.requireNonNull(waiting, "waiting");
        return closeUnder(client, caller -> waiting, wait);
    }

    /**
     * Runs {@code wait}, closes {@code client} once the call's thread is parked (waiting, with or without a timeout),
     * and asserts that the call then ends within {@link #PROMPTLY} with a {@link ClientClosedException}. For a wait with
     * nothing outside it to show that it has begun (a cache's first load without a connection, say): the close then
     * wakes the wait rather than finding the client closed before the call began.
     *
     * @param client the client the call waits through; closed here
     * @param wait the call, which parks its thread while it waits
     * @return the exception the call ended with, for more assertions (its message, say)
     * @throws Exception if the test thread is interrupted
     */
    public static ClientClosedException endsWithClientClosedOnceParked(BatonClient client, Wait wait) throws Exception {
        return closeUnder(client, caller -> () -> {
            Thread.State state = caller.get() == null ? null : caller.get().getState();
            return state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING;
        }, wait);
    }

    private static ClientClosedException closeUnder(BatonClient client,
                                                    Function<AtomicReference<Thread>, Callable<Boolean>> waitingOf, Wait wait)
        throws Exception {
        Objects.requireNonNull(client, "client");
        Objects.requireNonNull(wait, "wait");
        AtomicReference<Thread> caller = new AtomicReference<>();
        Callable<Boolean> waiting = waitingOf.apply(caller);
        ExecutorService thread = Executors.newSingleThreadExecutor(task -> {
            Thread t = new Thread(task, "close-under-wait");
            t.setDaemon(true);
            caller.set(t);
            return t;
        });
        try {
            Future<?> call = thread.submit(() -> {
                wait.run();
                return null;
            });
            await("the call to be waiting").atMost(TO_START_WAITING).until(() -> {
                if (call.isDone()) {
                    call.get();   // its failure, if it failed, says why better than a timeout
                    fail("the call returned before its client was closed: it never waited");
                }
                return waiting.call();
            });
            client.close();
            try {
                call.get(PROMPTLY.toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                fail("the call still waited " + PROMPTLY.toSeconds() + " s after its client was closed");
            } catch (ExecutionException e) {
                return assertInstanceOf(ClientClosedException.class, e.getCause(),
                    "the call ended on its closed client with another failure: " + e.getCause());
            }
            return fail("the call returned normally after its client was closed");
        } finally {
            thread.shutdownNow();
        }
    }
}
