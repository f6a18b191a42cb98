package dev.baton.server;

import dev.baton.server.internal.ServerSecurity;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/**
 * Turns an ensemble's TLS and authentication options into the system properties ZooKeeper's
 * server reads (and a JAAS file for SASL users).
 */
final class Security {
    private Security() {
    }

    static ServerSecurity of(boolean tls, boolean clientCertificates, Map<String, String> saslUsers,
                             LocalCertificates certificates, Path root) {
        if (!tls && saslUsers.isEmpty()) {
            return ServerSecurity.NONE;
        }
        Map<String, String> properties = new TreeMap<>();
        if (tls) {
            properties.putAll(certificates.serverProperties());
            // only Netty's connection factory speaks TLS
            properties.put("zookeeper.serverCnxnFactory", "org.apache.zookeeper.server.NettyServerCnxnFactory");
            // a client that presents a certificate is authenticated by it (scheme x509); without
            // the provider the server would close such a connection
            properties.put("zookeeper.authProvider.x509", "org.apache.zookeeper.server.auth.X509AuthenticationProvider");
            properties.put("zookeeper.ssl.clientAuth", clientCertificates ? "need" : "want");
        }
        if (!saslUsers.isEmpty()) {
            properties.put("java.security.auth.login.config", writeJaas(saslUsers, root).toString());
            properties.put("zookeeper.authProvider.sasl", "org.apache.zookeeper.server.auth.SASLAuthenticationProvider");
            // a session that has not authenticated with SASL is closed at its first request
            properties.put("zookeeper.sessionRequireClientSASLAuth", "true");
            // ZooKeeper 3.9 defaults to FIPS mode, which turns DIGEST-MD5 off
            properties.put("zookeeper.fips-mode", "false");
        }
        return new ServerSecurity(tls, Map.copyOf(properties),
            tls ? certificates.serverContext().getSocketFactory() : javax.net.SocketFactory.getDefault());
    }

    /** The servers' JAAS {@code Server} section: DIGEST-MD5 users as {@code user_<name>="<password>"}. */
    private static Path writeJaas(Map<String, String> users, Path root) {
        StringBuilder jaas = new StringBuilder("Server {\n    org.apache.zookeeper.server.auth.DigestLoginModule required");
        users.forEach((user, password) -> jaas.append("\n    user_").append(user).append("=\"").append(password).append('"'));
        jaas.append(";\n};\n");
        Path file = root.resolve("jaas-server.conf");
        try {
            Files.createDirectories(root);
            Files.writeString(file, jaas, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the servers' JAAS file " + file + ": " + e.getMessage(), e);
        }
        return file;
    }
}
