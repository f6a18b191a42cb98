package dev.baton.framework.internal;

import java.util.Optional;
import org.apache.zookeeper.ZooKeeper;

/**
 * The server a ZooKeeper handle is connected to, for {@link dev.baton.framework.ClientHealth}.
 *
 * <p>ZooKeeper's public API does not expose it (only a protected, "testable" accessor), but the
 * handle's {@code toString()} has said {@code remoteserver:<address>} since 3.4 and still does in
 * 3.9; reading it there is cheaper and less brittle than reflection. If a later version drops it,
 * health reports the server as unknown rather than failing.
 */
final class ServerAddress {
    private static final String MARK = "remoteserver:";

    private ServerAddress() {
    }

    static Optional<String> of(ZooKeeper zk) {
        if (zk == null) {
            return Optional.empty();
        }
        String described = zk.toString();
        int at = described.indexOf(MARK);
        if (at < 0) {
            return Optional.empty();
        }
        int from = at + MARK.length();
        int end = described.indexOf(' ', from);
        String address = (end < 0 ? described.substring(from) : described.substring(from, end)).trim();
        return address.isEmpty() || address.equals("null") ? Optional.empty() : Optional.of(address);
    }
}
