/**
 * Spring Boot auto-configuration of Baton: a started {@code BatonClient} from the {@code baton.*}
 * properties ({@link dev.baton.spring.BatonProperties}), an embedded ensemble for local
 * development, a Spring Integration lock registry, a leader initiator and a discovery
 * registration. Guide: docs/spring.md.
 */
package dev.baton.spring;
