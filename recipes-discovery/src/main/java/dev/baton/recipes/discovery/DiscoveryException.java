package dev.baton.recipes.discovery;

import dev.baton.framework.BatonException;

/** A service-discovery failure that is not a ZooKeeper error: an instance not registered, a cache that did not load, a conflict. */
public class DiscoveryException extends BatonException {
    private static final long serialVersionUID = 1L;

    /**
     * A discovery failure, explained in {@code message}.
     *
     * @param message which service or instance, and what went wrong
     */
    public DiscoveryException(String message) {
        super(message);
    }

    /**
     * A discovery failure, explained in {@code message}, caused by {@code cause}.
     *
     * @param message which service or instance, and what went wrong
     * @param cause the failure underneath, or null
     */
    public DiscoveryException(String message, Throwable cause) {
        super(message, cause);
    }
}
