package dev.baton.spring;

import dev.baton.framework.BatonClient;
import dev.baton.spring.integration.BatonLockRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.integration.support.locks.LockRegistry;

/**
 * Auto-configuration of a {@link BatonLockRegistry} (a Spring Integration {@link LockRegistry} on
 * Baton's mutex) when spring-integration-core and baton-recipes-lock are on the class path, unless
 * the service defines a {@code LockRegistry} of its own or sets
 * {@code baton.lock-registry.enabled=false}.
 */
@AutoConfiguration(after = BatonAutoConfiguration.class)
@ConditionalOnClass(name = {"org.springframework.integration.support.locks.LockRegistry",
    "dev.baton.recipes.lock.InterProcessMutex"})
@ConditionalOnBean(BatonClient.class)
@ConditionalOnProperty(prefix = "baton.lock-registry", name = "enabled", havingValue = "true", matchIfMissing = true)
public class BatonLockRegistryAutoConfiguration {

    /** Creates the auto-configuration (Spring does). */
    public BatonLockRegistryAutoConfiguration() {
    }

    /**
     * The registry, with its locks under {@code baton.lock-registry.root}.
     *
     * @param client the client
     * @param properties the {@code baton.*} properties
     * @return the registry
     */
    @Bean
    @ConditionalOnMissingBean(LockRegistry.class)
    public BatonLockRegistry batonLockRegistry(BatonClient client, BatonProperties properties) {
        BatonLockRegistry registry = new BatonLockRegistry(client, properties.getLockRegistry().getRoot());
        registry.setCacheCapacity(properties.getLockRegistry().getCacheCapacity());
        return registry;
    }
}
