package dev.baton.framework.retry;

import java.time.Duration;
import java.util.Objects;

/**
 * Argument checks shared by the retry policies. Each message names the policy and the parameter as
 * the constructor calls it ({@code "RetryNTimes: n must not be negative, was -1"}), so a bad value
 * read from configuration says which policy refused it.
 */
final class Durations {
    private Durations() {
    }

    static Duration nonNegative(Class<?> policy, String name, Duration value) {
        Objects.requireNonNull(value, () -> nameOf(policy) + ": " + name + " must not be null");
        if (value.isNegative()) {
            throw new IllegalArgumentException(nameOf(policy) + ": " + name + " must not be negative, was " + value);
        }
        return value;
    }

    static Duration positive(Class<?> policy, String name, Duration value) {
        Objects.requireNonNull(value, () -> nameOf(policy) + ": " + name + " must not be null");
        if (value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(nameOf(policy) + ": " + name + " must be positive, was " + value);
        }
        return value;
    }

    static int nonNegative(Class<?> policy, String name, int value) {
        if (value < 0) {
            throw new IllegalArgumentException(nameOf(policy) + ": " + name + " must not be negative, was " + value);
        }
        return value;
    }

    /** The class the caller constructed (a subclass such as RetryOneTime names itself); an anonymous one, its full name. */
    private static String nameOf(Class<?> policy) {
        return policy.getSimpleName().isEmpty() ? policy.getName() : policy.getSimpleName();
    }
}
