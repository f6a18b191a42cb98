package dev.baton.spring;

import dev.baton.framework.BatonClient;

/**
 * Adjusts the auto-configured {@link BatonClient}'s builder after the {@code baton.*} properties
 * were applied and before the client is built: for settings the properties do not cover (an
 * {@code AclProvider}, TLS through a {@code ZKClientConfig}, an event executor). Every bean of
 * this type is applied, in {@code @Order}.
 *
 * <pre>{@code
 * @Bean
 * BatonClientCustomizer acls() {
 *     return builder -> builder.aclProvider(myAclProvider);
 * }
 * }</pre>
 */
@FunctionalInterface
public interface BatonClientCustomizer {
    /**
     * Adjusts the builder.
     *
     * @param builder the builder, with the properties already applied
     */
    void customize(BatonClient.Builder builder);
}
