package dev.baton.recipes.election;

import dev.baton.framework.BatonClient;
import java.util.Objects;

/**
 * The work a {@link LeaderSelector} runs while it leads.
 *
 * <p>{@code takeLeadership} runs on the selector's own thread; leadership lasts until it returns.
 * When leadership is lost (per the selector's {@link LeadershipPolicy}) or the selector is
 * closed, the thread is interrupted: return promptly. Until it returns the selector's node stays
 * first in line, so nobody else is elected; {@link LeaderSelector#hasLeadership()} is already
 * false. An exception thrown from it is logged with its stack trace and leadership is released.
 * It may throw any exception because it is the caller's own work, which has checked exceptions of
 * its own, and every failure is handled the same way.
 *
 * <p>A lambda {@code client -> ...} implements the variant without the token. For work that
 * fences what it writes with the term's token, write the lambda through {@link #withToken}:
 *
 * <pre>{@code
 * new LeaderSelector(client, "/jobs/report/leader", "worker-1",
 *     LeaderSelectorListener.withToken((c, token) -> runReport(token)));
 * }</pre>
 */
@FunctionalInterface
public interface LeaderSelectorListener {
    /**
     * Lead until this returns.
     *
     * @param client the selector's client
     * @throws Exception anything the work throws: logged, and leadership is released
     */
    void takeLeadership(BatonClient client) throws Exception;

    /**
     * Lead until this returns, in the term identified by {@code token} (the czxid of the
     * selector's node: larger than every earlier leader's; give it to fenced resources). Forwards
     * to {@link #takeLeadership(BatonClient)} unless overridden.
     *
     * @param client the selector's client
     * @param token the term's fencing token: larger than every earlier leader's
     * @throws Exception anything the work throws: logged, and leadership is released
     */
    default void takeLeadership(BatonClient client, long token) throws Exception {
        takeLeadership(client);
    }

    /**
     * {@return a listener whose work receives the term's fencing token} The selector calls the token
     * variant, {@link #takeLeadership(BatonClient, long)}, which runs {@code work}; the variant without
     * the token, which the selector never calls, throws {@link UnsupportedOperationException} (work that
     * fences must not run without its token).
     *
     * @param work what to run while leading, given the selector's client and the term's token
     */
    static LeaderSelectorListener withToken(TokenAware work) {
        Objects.requireNonNull(work, "work");
        return new LeaderSelectorListener() {
            @Override
            public void takeLeadership(BatonClient client) {
                throw new UnsupportedOperationException(
                    "this listener's work needs the term's token: call takeLeadership(client, token)");
            }

            @Override
            public void takeLeadership(BatonClient client, long token) throws Exception {
                work.takeLeadership(client, token);
            }
        };
    }

    /** The work of a {@link #withToken} listener: {@link LeaderSelectorListener#takeLeadership(BatonClient, long)} as a lambda. */
    @FunctionalInterface
    interface TokenAware {
        /**
         * Lead until this returns, in the term identified by {@code token}.
         *
         * @param client the selector's client
         * @param token the term's fencing token: larger than every earlier leader's
         * @throws Exception anything the work throws: logged, and leadership is released
         */
        void takeLeadership(BatonClient client, long token) throws Exception;
    }
}
