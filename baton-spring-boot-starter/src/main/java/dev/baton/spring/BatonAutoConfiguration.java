package dev.baton.spring;

import dev.baton.framework.BatonClient;
import dev.baton.framework.BatonException;
import dev.baton.framework.retry.ExponentialBackoffRetry;
import dev.baton.framework.retry.RetryPolicy;
import dev.baton.server.EmbeddedEnsemble;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Auto-configuration of a started {@link BatonClient} from the {@code baton.*} properties
 * ({@link BatonProperties}), closed with the application context.
 *
 * <p>The client is built from the properties, then every {@link BatonClientCustomizer} adjusts
 * the builder; a {@link RetryPolicy} bean replaces the {@code baton.retry.*} backoff. The bean
 * is started when it is created, so the beans that use it can use it at once (operations wait
 * for the connection); with {@code baton.startup-timeout} set, start-up also waits for the first
 * connection and fails if it is not made in time. A connect string that cannot be used fails
 * start-up with a message naming the property and what was wrong: these failures are
 * {@link BatonStartupException}s, which {@link BatonStartupFailureAnalyzer} reports as Spring Boot's
 * "APPLICATION FAILED TO START" description and action.
 *
 * <p>With {@code baton.embedded.enabled=true} (and baton-server-embedded on the class path) an
 * {@link EmbeddedEnsemble} is started first and the client connects to it; the context closes
 * the client before the ensemble, so the client's session ends cleanly.
 *
 * <p>A service that defines its own {@code BatonClient} bean keeps it: nothing here replaces it.
 */
@AutoConfiguration
@EnableConfigurationProperties(BatonProperties.class)
public class BatonAutoConfiguration {

    /** Creates the auto-configuration (Spring does). */
    public BatonAutoConfiguration() {
    }

    /**
     * The client: built from the properties and customizers, started.
     *
     * @param properties the {@code baton.*} properties
     * @param retryPolicy a retry policy bean, if the service defines one
     * @param customizers the customizers, in order
     * @return the started client
     * @throws InterruptedException if start-up is interrupted while it waits for the first connection
     */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    public BatonClient batonClient(BatonProperties properties, ObjectProvider<RetryPolicy> retryPolicy,
                                   ObjectProvider<BatonClientCustomizer> customizers) throws InterruptedException {
        BatonClient.Builder builder = BatonClient.builder();
        if (properties.getConnectString() != null) {
            builder.connectString(checkedConnectString(properties.getConnectString()));
        }
        if (properties.getNamespace() != null) {
            builder.namespace(properties.getNamespace());
        }
        if (properties.getSessionTimeout() != null) {
            builder.sessionTimeout(properties.getSessionTimeout());
        }
        if (properties.getConnectionTimeout() != null) {
            builder.connectionTimeout(properties.getConnectionTimeout());
        }
        if (properties.getErrorPolicy() != null) {
            builder.errorPolicy(properties.getErrorPolicy());
        }
        BatonProperties.Auth auth = properties.getAuth();
        if (auth.getScheme() != null) {
            if (auth.getCredentials() == null) {
                throw new BatonStartupException("baton.auth.credentials", "baton.auth.scheme is '" + auth.getScheme()
                    + "' but baton.auth.credentials is not set: set both, or neither",
                    "Set baton.auth.credentials (for digest, user:password), or remove baton.auth.scheme.", null);
            }
            builder.authorization(auth.getScheme(), auth.getCredentials().getBytes(StandardCharsets.UTF_8));
        }
        builder.retryPolicy(retryPolicy.getIfAvailable(() -> backoff(properties.getRetry())));
        customizers.orderedStream().forEach(c -> c.customize(builder));
        BatonClient client = build(builder, properties);
        try {
            start(client, properties);
            return client;
        } catch (RuntimeException | InterruptedException e) {
            client.close();
            throw e;
        }
    }

    /** The connect string, refused with the property's name when the client's builder refuses it. */
    private static String checkedConnectString(String connectString) {
        try {
            BatonClient.builder().connectString(connectString);
            return connectString;
        } catch (BatonException | IllegalArgumentException e) {
            throw new BatonStartupException("baton.connect-string", "baton.connect-string must be host:port[,host:port...][/chroot], "
                + "such as 'zk1:2181,zk2:2181,zk3:2181', but was '" + connectString + "': " + e.getMessage(),
                "Correct baton.connect-string: host:port pairs separated by commas, then an optional /chroot.", e);
        }
    }

    private static BatonClient build(BatonClient.Builder builder, BatonProperties properties) {
        try {
            return builder.build();
        } catch (IllegalStateException | BatonException e) {
            if (properties.getConnectString() == null && properties.getEmbedded().isEnabled()) {
                // the embedded configuration is skipped without the module, so the client has no ensemble
                throw new BatonStartupException("baton.embedded.enabled", "baton.embedded.enabled is true, but "
                    + "dev.baton:baton-server-embedded is not on the class path: add it (in the profile or scope you run with), "
                    + "or set baton.connect-string", "Add dev.baton:baton-server-embedded to this run's class path (check the "
                    + "Maven profile or scope that brings it), or remove baton.embedded.enabled and set baton.connect-string.", e);
            }
            if (properties.getConnectString() == null) {
                throw new BatonStartupException("baton.connect-string", "Baton needs an ensemble: set baton.connect-string "
                    + "(such as 'zk1:2181,zk2:2181,zk3:2181'), or baton.embedded.enabled=true with dev.baton:baton-server-embedded "
                    + "on the class path for a server in this JVM (" + e.getMessage() + ")",
                    "Set baton.connect-string to your ZooKeeper ensemble, or for local development set "
                    + "baton.embedded.enabled=true and add dev.baton:baton-server-embedded.", e);
            }
            throw e;
        }
    }

    private static void start(BatonClient client, BatonProperties properties) throws InterruptedException {
        try {
            client.start();
        } catch (BatonException e) {
            throw new BatonStartupException("baton.connect-string", "Baton could not start a client for baton.connect-string '"
                + properties.getConnectString() + "': " + e.getMessage(),
                "Correct the host names in baton.connect-string: at least one must resolve from this machine.", e);
        }
        Duration wait = properties.getStartupTimeout();
        if (wait != null && !wait.isZero() && !wait.isNegative() && !client.blockUntilConnected(wait)) {
            throw new BatonStartupException(properties.getEmbedded().isEnabled() ? "baton.startup-timeout" : "baton.connect-string",
                "Baton could not connect to " + describeEnsemble(properties) + " within baton.startup-timeout (" + wait
                + "): are the servers up and reachable?", unreachable(properties), null);
        }
    }

    private static String unreachable(BatonProperties properties) {
        String wait = "raise baton.startup-timeout, or set it to 0 to start without waiting (operations then wait for the connection).";
        return properties.getEmbedded().isEnabled() ? "The embedded ensemble did not come up in time: " + wait
            : "Check that the servers of baton.connect-string are up and reachable from this machine, or " + wait;
    }

    private static String describeEnsemble(BatonProperties properties) {
        return properties.getEmbedded().isEnabled() ? "the embedded ensemble" : "'" + properties.getConnectString() + "'";
    }

    private static RetryPolicy backoff(BatonProperties.Retry retry) {
        return new ExponentialBackoffRetry(retry.getBaseSleep(), retry.getMaxRetries(), retry.getMaxSleep());
    }

    /**
     * The embedded ensemble, when {@code baton.embedded.enabled=true} and baton-server-embedded is
     * on the class path: started before the client, closed after it.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "dev.baton.server.EmbeddedEnsemble")
    @ConditionalOnProperty(prefix = "baton.embedded", name = "enabled", havingValue = "true")
    public static class EmbeddedEnsembleConfiguration {

        /** Creates the configuration (Spring does). */
        public EmbeddedEnsembleConfiguration() {
        }

        /**
         * The ensemble, started.
         *
         * @param properties the {@code baton.*} properties
         * @return the running ensemble
         */
        @Bean(destroyMethod = "close")
        @ConditionalOnMissingBean
        public EmbeddedEnsemble batonEmbeddedEnsemble(BatonProperties properties) {
            BatonProperties.Embedded settings = properties.getEmbedded();
            EmbeddedEnsemble.Builder builder = EmbeddedEnsemble.builder().nodes(settings.getNodes());
            if (settings.getPort() != 0) {
                builder.clientPort(settings.getPort());
            }
            if (settings.getDataDir() != null) {
                builder.dataDir(settings.getDataDir());
            }
            EmbeddedEnsemble ensemble = builder.build();
            try {
                ensemble.start();
            } catch (RuntimeException e) {
                ensemble.close();
                throw e;
            }
            return ensemble;
        }

        /**
         * Points the client at the ensemble. The client bean depends on it, and so on the ensemble:
         * Spring closes the client first.
         *
         * @param ensemble the embedded ensemble
         * @return a customizer setting the connect string
         */
        @Bean
        public BatonClientCustomizer batonEmbeddedConnectString(EmbeddedEnsemble ensemble) {
            return builder -> builder.connectString(ensemble.connectString());
        }
    }
}
