package dev.baton.framework.internal;

import dev.baton.framework.BatonException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import org.apache.zookeeper.client.ConnectStringParser;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The rules for a connect string that ZooKeeper's own parser does not enforce: it skips an empty
 * element ({@code a:1,,b:2}) and accepts an empty host ({@code :2181}) in silence, and resolves
 * host names only while connecting, so a mistyped host makes the client retry for ever instead
 * of failing.
 */
public final class ConnectStrings {
    private static final Logger LOG = LoggerFactory.getLogger(ConnectStrings.class);

    private ConnectStrings() {
    }

    /**
     * The servers of {@code connectString}, unresolved.
     *
     * @throws IllegalArgumentException naming the connect string and what is wrong with it
     */
    public static List<InetSocketAddress> servers(String connectString) {
        if (connectString.isBlank()) {
            throw new IllegalArgumentException("connectString must name at least one host:port, was '" + connectString + "'");
        }
        int chroot = connectString.indexOf('/');
        String hosts = chroot >= 0 ? connectString.substring(0, chroot) : connectString;
        String[] elements = hosts.split(",", -1);
        for (int i = 0; i < elements.length; i++) {
            String element = elements[i].trim();
            if (element.isEmpty()) {
                throw notHostPort(connectString, "element " + (i + 1) + " of " + elements.length + " is empty");
            }
            if (element.startsWith(":")) {
                throw notHostPort(connectString, "element " + (i + 1) + " ('" + element + "') has no host");
            }
        }
        try {
            List<InetSocketAddress> servers = new ConnectStringParser(connectString).getServerAddresses();
            if (servers.isEmpty()) {
                throw notHostPort(connectString, "no host:port in it");
            }
            return servers;
        } catch (IllegalArgumentException e) {
            throw notHostPort(connectString, e.getMessage());
        }
    }

    /**
     * Checks that the host names of {@code connectString} resolve. One that does not is logged
     * (the servers that resolve are enough to connect, and ZooKeeper tries it again on every round
     * of connection attempts); none resolving fails.
     *
     * @throws BatonException naming the hosts that did not resolve, if none did
     */
    public static void requireResolvable(String connectString) {
        List<String> failures = new ArrayList<>();
        List<InetSocketAddress> servers = servers(connectString);
        for (InetSocketAddress server : servers) {
            try {
                InetAddress.getAllByName(server.getHostString());
            } catch (UnknownHostException e) {
                failures.add(server.getHostString());
            }
        }
        if (failures.size() == servers.size()) {
            throw new BatonException("cannot resolve " + (failures.size() == 1 ? "host " : "any host of ") + String.join(", ", failures)
                + " (connect string '" + connectString + "')");
        }
        if (!failures.isEmpty()) {
            LOG.warn("connect string '{}': cannot resolve {}; connecting to the other servers", connectString, String.join(", ", failures));
        }
    }

    private static IllegalArgumentException notHostPort(String connectString, String why) {
        return new IllegalArgumentException("connectString '" + connectString + "' is not host:port[,host:port...][/chroot]: " + why);
    }
}
