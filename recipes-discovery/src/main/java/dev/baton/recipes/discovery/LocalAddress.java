package dev.baton.recipes.discovery;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.Collections;

/** This host's address for instances that name none: the first non-loopback IPv4 address of an interface that is up. */
final class LocalAddress {
    private LocalAddress() {
    }

    /** Scanning interfaces is slow: done once, lazily, the first time an instance needs a default address. */
    private static final class Holder {
        static final String FIRST = scan();
    }

    public static String first() {
        return Holder.FIRST;
    }

    private static String scan() {
        try {
            for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                if (!nic.isUp() || nic.isLoopback()) {
                    continue;
                }
                for (InetAddress address : Collections.list(nic.getInetAddresses())) {
                    if (address instanceof Inet4Address && !address.isLoopbackAddress() && !address.isLinkLocalAddress()) {
                        return address.getHostAddress();
                    }
                }
            }
        } catch (SocketException e) {
            // no interface list: fall back to loopback below
        }
        return InetAddress.getLoopbackAddress().getHostAddress();
    }
}
