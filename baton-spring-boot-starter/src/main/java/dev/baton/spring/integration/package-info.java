/**
 * Spring Integration on Baton: {@link dev.baton.spring.integration.BatonLockRegistry} (a
 * {@code LockRegistry} on Baton's mutex, with fencing tokens and loud loss) and the leader events
 * of {@link dev.baton.spring.leader.BatonLeaderInitiator}. Needs spring-integration-core.
 */
package dev.baton.spring.integration;
