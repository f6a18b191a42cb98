package dev.baton.server.internal;

import java.util.Map;
import javax.net.SocketFactory;

/**
 * What a server of an ensemble needs for TLS and authentication, and how this JVM probes it.
 *
 * @param tls whether the client port serves TLS only ({@code secureClientPort})
 * @param properties system properties for the server's JVM: ZooKeeper reads its TLS stores,
 *     authentication providers and JAAS file only from system properties
 * @param probes makes the sockets of four-letter-word probes (TLS ones for a TLS port)
 */
public record ServerSecurity(boolean tls, Map<String, String> properties, SocketFactory probes) {
    /** No TLS, no authentication: plain sockets. */
    public static final ServerSecurity NONE = new ServerSecurity(false, Map.of(), SocketFactory.getDefault());
}
