/**
 * Registration of this Spring Boot service in Baton's service discovery, for as long as it runs.
 */
package dev.baton.spring.discovery;
