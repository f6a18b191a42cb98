package dev.baton.framework.internal;

import java.time.Duration;
import java.util.List;
import org.apache.zookeeper.client.ZKClientConfig;

/**
 * How {@link Connection} builds handles. A type of its own so that the public builder, the client core
 * and the connection all depend on it, and not on one another in a circle.
 */
public record ConnectionSettings(String connectString, Duration sessionTimeout, Duration connectionTimeout,
                                 boolean canBeReadOnly, ZKClientConfig clientConfig, List<Auth> auths,
                                 boolean lostAfterSuspendedTimeout) {
    /** Credentials added to every new handle. */
    public record Auth(String scheme, byte[] auth) {
    }
}
