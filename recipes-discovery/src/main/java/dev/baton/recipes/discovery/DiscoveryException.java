package dev.baton.recipes.discovery;

import dev.baton.framework.BatonException;

/** A service-discovery failure that is not a ZooKeeper error: an instance not registered, a cache that did not load, a conflict. */
public class DiscoveryException extends BatonException {
    private static final long serialVersionUID = 1L;

    public DiscoveryException(String message) {
        super(message);
    }

    public DiscoveryException(String message, Throwable cause) {
        super(message, cause);
    }
}
