package dev.baton.spring;

import dev.baton.framework.BatonClient;
import dev.baton.recipes.discovery.ServiceDiscovery;
import dev.baton.recipes.discovery.ServiceDiscoveryBuilder;
import dev.baton.spring.discovery.BatonServiceRegistration;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * Auto-configuration of a {@link ServiceDiscovery} under {@code baton.discovery.base-path} when
 * baton-recipes-discovery is on the class path, and, with {@code baton.discovery.register=true},
 * a {@link BatonServiceRegistration} of this instance: named by {@code spring.application.name},
 * at the web server's port, deregistered when the context stops.
 */
@AutoConfiguration(after = BatonAutoConfiguration.class)
@ConditionalOnClass(name = "dev.baton.recipes.discovery.ServiceDiscovery")
@ConditionalOnBean(BatonClient.class)
public class BatonDiscoveryAutoConfiguration {

    /** Creates the auto-configuration (Spring does). */
    public BatonDiscoveryAutoConfiguration() {
    }

    /**
     * The discovery (instances without a payload), started.
     *
     * @param client the client
     * @param properties the {@code baton.*} properties
     * @return the started discovery
     * @throws InterruptedException if start-up is interrupted while the discovery starts
     */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    public ServiceDiscovery<Void> batonServiceDiscovery(BatonClient client, BatonProperties properties) throws InterruptedException {
        ServiceDiscovery<Void> discovery = ServiceDiscoveryBuilder.builder(Void.class)
            .client(client)
            .basePath(properties.getDiscovery().getBasePath())
            .build();
        discovery.start();
        return discovery;
    }

    /**
     * This instance's registration.
     *
     * @param discovery the discovery
     * @param properties the {@code baton.*} properties
     * @param environment for {@code spring.application.name} and {@code server.port}
     * @return the registration, a lifecycle bean
     */
    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnProperty(prefix = "baton.discovery", name = "register", havingValue = "true")
    public BatonServiceRegistration batonServiceRegistration(ServiceDiscovery<Void> discovery, BatonProperties properties,
                                                             Environment environment) {
        BatonProperties.Discovery settings = properties.getDiscovery();
        String name = settings.getServiceName() != null ? settings.getServiceName() : environment.getProperty("spring.application.name");
        if (name == null) {
            throw new BatonStartupException("spring.application.name", "baton.discovery.register=true needs a service name: "
                + "set spring.application.name or baton.discovery.service-name",
                "Set spring.application.name (or baton.discovery.service-name), or remove baton.discovery.register.", null);
        }
        return new BatonServiceRegistration(discovery,
            BatonServiceRegistration.template(name, settings.getInstanceId(), settings.getAddress(), settings.getMetadata()),
            settings.getPort(), () -> environment.getProperty("server.port", Integer.class));
    }
}
