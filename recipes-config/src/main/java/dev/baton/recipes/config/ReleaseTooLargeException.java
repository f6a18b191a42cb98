package dev.baton.recipes.config;

import dev.baton.framework.DataTooLargeException;

/**
 * A release (its new values, plus the history entry that keeps the old and new ones) would not
 * fit in one ZooKeeper transaction ({@code jute.maxbuffer}, 1 MiB by default). Raised before
 * anything is sent: nothing is written.
 */
public class ReleaseTooLargeException extends DataTooLargeException {
    private static final long serialVersionUID = 1L;

    /** The message: the release, its size, the limit and what to do. */
    private final String detail;

    /**
     * A release too large for one transaction.
     *
     * @param base the store's base path
     * @param number the number the release would have had
     * @param changes how many keys it changes
     * @param cause the framework's size check, with the size and the limit
     */
    public ReleaseTooLargeException(String base, long number, int changes, DataTooLargeException cause) {
        super("release", base, cause.size(), cause.limit());
        this.detail = "release " + number + " of " + base + " (" + changes + " changed keys) needs at least " + cause.size()
            + " bytes with its history entry; one ZooKeeper transaction carries at most " + cause.limit()
            + " bytes: split it into smaller releases";
    }

    /** The release, its size and the limit, and what to do. */
    @Override
    public String getMessage() {
        return detail;
    }
}
