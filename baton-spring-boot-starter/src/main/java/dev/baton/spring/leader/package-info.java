/**
 * Leadership for Spring applications: {@link dev.baton.spring.leader.BatonLeaderInitiator} starts
 * and stops {@link dev.baton.spring.leader.LeaderLifecycle} beans as this instance gains and loses
 * leadership, and guards {@code @Scheduled} jobs with {@code runIfLeader}.
 */
package dev.baton.spring.leader;
