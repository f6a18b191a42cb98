package dev.baton.recipes.barrier;

import dev.baton.framework.BatonClient;
import dev.baton.framework.BatonObserver;
import dev.baton.framework.BatonObserver.WaitOutcome;
import dev.baton.framework.ClientClosedException;
import dev.baton.framework.ClientClosingListener;
import dev.baton.framework.ConnectionState;
import dev.baton.framework.Deadline;
import dev.baton.framework.Failures;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * {@link DistributedBarrier#waitOnBarrierAsync}: the gate's wait with no thread parked. Each look is
 * an asynchronous exists with a one-shot watch; the watch's event, or a reconnection (a watch does
 * not outlive its session), looks again. It ends true when a look finds the node gone, false at the
 * deadline, with the look's failure when that is not connection trouble, and with
 * {@link ClientClosedException} when the client closes. Cancelling it stops the looks; a watch already
 * set stays on the server until the node changes, and then wakes nothing.
 */
final class AsyncGateWait implements ClientClosingListener {
    private final BatonClient client;
    private final String path;
    private final Deadline deadline;
    private final CompletableFuture<Boolean> result = new CompletableFuture<>();

    private AsyncGateWait(BatonClient client, String path, Deadline deadline) {
        this.client = client;
        this.path = path;
        this.deadline = deadline;
    }

    static CompletableFuture<Boolean> start(BatonClient client, String path, Deadline deadline) {
        AsyncGateWait wait = new AsyncGateWait(client, path, deadline);
        if (client.isClosed()) {
            wait.result.completeExceptionally(new ClientClosedException("waitOnBarrier", path));
            return wait.result;
        }
        wait.observe();
        client.addConnectionStateListener(wait);
        wait.result.whenComplete((passed, e) -> client.removeConnectionStateListener(wait));
        if (!deadline.isNone() && !deadline.hasPassed()) {
            CompletableFuture.delayedExecutor(deadline.remainingNanos(), TimeUnit.NANOSECONDS, client.asyncExecutor())
                .execute(() -> wait.result.complete(false));
        }
        wait.look();
        return wait.result;
    }

    /** Tells the client's observer of the wait, as the blocking form does. */
    private void observe() {
        BatonObserver observer = client.observer();
        if (observer == BatonObserver.NONE) {
            return;
        }
        long start = client.ticker().read();
        observer.barrierWaitStarted("barrier", path);
        result.whenComplete((passed, e) -> observer.barrierWaitFinished("barrier", path,
            e != null ? WaitOutcome.FAILED : passed ? WaitOutcome.PASSED : WaitOutcome.TIMED_OUT,
            client.ticker().read() - start));
    }

    private void look() {
        if (result.isDone()) {
            return;
        }
        client.checkExists().usingWatcher(event -> look()).forPathAsync(path).whenComplete((stat, e) -> {
            if (e == null) {
                if (stat == null) {
                    result.complete(true);
                } else if (deadline.hasPassed()) {
                    result.complete(false); // a zero timeout looks once
                }
                return;
            }
            Throwable cause = Failures.unwrap(e);
            if (!Failures.isConnectionTrouble(cause)) {
                result.completeExceptionally(cause);
            }
            // connection trouble: the reconnection looks again
        });
    }

    @Override
    public void stateChanged(BatonClient changed, ConnectionState newState) {
        if (newState.isConnected()) {
            look();
        }
    }

    @Override
    public void clientClosing() {
        result.completeExceptionally(new ClientClosedException("waitOnBarrier", path));
    }
}
