package dev.baton.recipes.config;

import dev.baton.framework.ZPaths;
import dev.baton.framework.retry.RetryNTimes;
import dev.baton.framework.retry.RetryPolicy;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How a {@link DistributedAtomicLong} falls back to a lock when its optimistic attempts give up:
 * it takes a mutex at {@link #lockPath()} (Curator's {@code InterProcessMutex} layout,
 * {@code _c_<uuid>-lock-<seq>} nodes under it, so Curator's promoted counters and Baton's exclude
 * each other), waits at most {@link #timeout()} for it, and retries under the lock with
 * {@link #retryPolicy()}.
 *
 * @param lockPath the mutex's folder
 * @param timeout how long to wait for the mutex; empty: as long as it takes
 * @param retryPolicy retries of the update while the mutex is held
 */
public record PromotedToLock(String lockPath, Optional<Duration> timeout, RetryPolicy retryPolicy) {
    /**
     * Checks the lock path and that no component is null.
     *
     * @param lockPath the mutex's folder
     * @param timeout how long to wait for the mutex
     * @param retryPolicy retries while the mutex is held
     */
    public PromotedToLock {
        ZPaths.validateRecipePath("PromotedToLock", lockPath);
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(retryPolicy, "retryPolicy");
    }

    /**
     * Starts a configuration.
     *
     * @return a builder; {@link Builder#lockPath} is required
     */
    public static Builder builder() {
        return new Builder();
    }

    /** Builds a {@link PromotedToLock}; each setting is checked as it is set. */
    public static final class Builder {
        private String lockPath;
        private Duration timeout;
        private RetryPolicy retryPolicy = new RetryNTimes(0, Duration.ZERO);

        private Builder() {
        }

        /**
         * The mutex's folder (required).
         *
         * @param path an absolute path
         * @return this builder
         */
        public Builder lockPath(String path) {
            this.lockPath = ZPaths.validateRecipePath("PromotedToLock", path);
            return this;
        }

        /**
         * How long to wait for the mutex. Default: as long as it takes.
         *
         * @param wait zero or more
         * @return this builder
         */
        public Builder timeout(Duration wait) {
            Objects.requireNonNull(wait, "timeout");
            if (wait.isNegative()) {
                throw new IllegalArgumentException("timeout must not be negative, was " + wait);
            }
            this.timeout = wait;
            return this;
        }

        /**
         * Retries of the update while the mutex is held. Default: none (one try under the lock).
         *
         * @param policy the retries
         * @return this builder
         */
        public Builder retryPolicy(RetryPolicy policy) {
            this.retryPolicy = Objects.requireNonNull(policy, "retryPolicy");
            return this;
        }

        /**
         * Makes the configuration.
         *
         * @return the promotion settings
         * @throws IllegalStateException if no lock path was set
         */
        public PromotedToLock build() {
            if (lockPath == null) {
                throw new IllegalStateException("PromotedToLock needs a lockPath: PromotedToLock.builder().lockPath(\"/locks/counter\")");
            }
            return new PromotedToLock(lockPath, Optional.ofNullable(timeout), retryPolicy);
        }
    }
}
