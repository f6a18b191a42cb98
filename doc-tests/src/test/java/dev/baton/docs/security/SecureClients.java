package dev.baton.docs.security;

import dev.baton.framework.AclProvider;
import dev.baton.framework.BatonClient;
import java.nio.file.Path;
import org.apache.zookeeper.client.ZKClientConfig;

/** A Baton client for an ensemble that serves TLS and knows each client by its certificate. */
public final class SecureClients {
    private SecureClients() {
    }

    /**
     * A client that connects over TLS, presents the certificate in {@code keyStore} (its subject,
     * for example {@code CN=billing}, is the client's x509 identity) and gives every node it
     * creates the ACL "only my identity may do anything".
     */
    public static BatonClient connect(String connectString, Path trustStore, String trustStorePassword,
                                      Path keyStore, String keyStorePassword) {
        ZKClientConfig tls = new ZKClientConfig();
        tls.setProperty(ZKClientConfig.SECURE_CLIENT, "true");
        // only the Netty socket speaks TLS
        tls.setProperty(ZKClientConfig.ZOOKEEPER_CLIENT_CNXN_SOCKET, "org.apache.zookeeper.ClientCnxnSocketNetty");
        tls.setProperty("zookeeper.ssl.trustStore.location", trustStore.toString());
        tls.setProperty("zookeeper.ssl.trustStore.password", trustStorePassword);
        tls.setProperty("zookeeper.ssl.keyStore.location", keyStore.toString());
        tls.setProperty("zookeeper.ssl.keyStore.password", keyStorePassword);
        return BatonClient.builder()
            .connectString(connectString)
            .zkClientConfig(tls)
            .aclProvider(AclProvider.CREATOR_ALL)
            .build();
    }
}
