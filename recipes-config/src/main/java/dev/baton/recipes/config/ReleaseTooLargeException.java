package dev.baton.recipes.config;

import dev.baton.framework.DataTooLargeException;

/**
 * A release (its new values, plus the history entry that keeps the old and new ones) would not
 * fit in one ZooKeeper transaction ({@code jute.maxbuffer}, 1 MiB by default). Raised before
 * anything is sent: nothing is written.
 */
public class ReleaseTooLargeException extends DataTooLargeException {
    private static final long serialVersionUID = 1L;

    private final String detail;

    public ReleaseTooLargeException(String base, long number, int changes, DataTooLargeException cause) {
        super("release", base, cause.size(), cause.limit());
        this.detail = "release " + number + " of " + base + " (" + changes + " changed keys) needs at least " + cause.size()
            + " bytes with its history entry; one ZooKeeper transaction carries at most " + cause.limit()
            + " bytes: split it into smaller releases";
    }

    @Override
    public String getMessage() {
        return detail;
    }
}
