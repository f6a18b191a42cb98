package dev.baton.framework;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.framework.internal.Errors;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

/** The one classification of failures and the one await: what every recipe now answers alike. */
class FailuresTest {
    private static final BatonException LOSS = new ConnectionLossException("create", "/a", null);
    private static final BatonException NO_CONNECTION = new NoConnectionException("create", "/a", Duration.ofSeconds(1));
    private static final BatonException TIMEOUT = new OperationTimeoutException("create", "/a", null);
    private static final BatonException MOVED = new SessionMovedException("create", "/a", null);
    private static final BatonException EXPIRED = new SessionExpiredException("create", "/a", null);
    private static final BatonException CLOSED = new ClientClosedException("create", "/a");
    private static final BatonException NO_NODE = new NoNodeException("getData", "/a", null);
    private static final BatonException NO_AUTH = new NoAuthException("create", "/a", null);

    @Test
    void connectionTroubleIsTheLinkNotTheDataAndNotAClosedClient() {
        for (BatonException trouble : new BatonException[] {LOSS, NO_CONNECTION, TIMEOUT, MOVED, EXPIRED}) {
            assertThat(Failures.isConnectionTrouble(trouble)).as("%s", trouble).isTrue();
            assertThat(Failures.isConnectionTrouble(new CompletionException(new ExecutionException(trouble))))
                .as("wrapped %s", trouble).isTrue();
        }
        for (BatonException other : new BatonException[] {CLOSED, NO_NODE, NO_AUTH}) {
            assertThat(Failures.isConnectionTrouble(other)).as("%s", other).isFalse();
        }
    }

    @Test
    void theRetryLoopRetriesConnectionTroubleButNotAnExpiredSessionOrAnExhaustedConnectionWait() {
        assertThat(Errors.isRetryable(LOSS)).isTrue();
        assertThat(Errors.isRetryable(TIMEOUT)).isTrue();
        assertThat(Errors.isRetryable(MOVED)).isTrue();
        assertThat(Errors.isRetryable(EXPIRED)).isFalse();
        assertThat(Errors.isRetryable(NO_CONNECTION)).isFalse();
        assertThat(Errors.isRetryable(NO_NODE)).isFalse();
        assertThat(Errors.isRetryable(CLOSED)).isFalse();
    }

    @Test
    void awaitThrowsTheOperationsOwnExceptionAndWrapsOnlyCheckedOnes() {
        assertThatThrownBy(() -> Futures.await(CompletableFuture.failedFuture(new CompletionException(NO_NODE)))).isSameAs(NO_NODE);
        IOException checked = new IOException("disk");
        assertThatThrownBy(() -> Futures.await(CompletableFuture.failedFuture(checked)))
            .isExactlyInstanceOf(BatonException.class).hasCause(checked);
        CompletableFuture<String> cancelled = new CompletableFuture<>();
        cancelled.cancel(false);
        assertThatThrownBy(() -> Futures.await(cancelled)).isExactlyInstanceOf(BatonException.class).hasMessageContaining("cancelled");
    }

    @Test
    void nullIfNoNodeReadsAMissingNodeAsNullAndPassesOtherFailuresUnwrapped() throws InterruptedException {
        CompletableFuture<String> gone = Futures.nullIfNoNode(CompletableFuture.failedFuture(new CompletionException(NO_NODE)));
        assertThat(Futures.await(gone)).isNull();
        assertThatThrownBy(() -> Futures.await(Futures.nullIfNoNode(CompletableFuture.failedFuture(NO_AUTH)))).isSameAs(NO_AUTH);
    }
}
