package dev.baton.spring.leader;

import org.springframework.context.Lifecycle;

/**
 * A bean that runs only while this instance leads: the {@link BatonLeaderInitiator} starts every
 * bean of this type when leadership is granted and stops them (in reverse order) when it is
 * revoked, before the next leader can be elected.
 *
 * <p>Implement plain {@link Lifecycle}: a {@code SmartLifecycle} that starts itself with the
 * context would run on every instance, so the initiator refuses one whose
 * {@code isAutoStartup()} is true. {@code start()} and {@code stop()} run on the initiator's own
 * thread, one at a time; a start that throws is logged and the others still start.
 *
 * <pre>{@code
 * @Component
 * class ReportScheduler implements LeaderLifecycle {
 *     private volatile boolean running;
 *     public void start() { running = true; ... }
 *     public void stop() { running = false; ... }
 *     public boolean isRunning() { return running; }
 * }
 * }</pre>
 */
public interface LeaderLifecycle extends Lifecycle {
}
