package dev.baton.spring.leader;

import dev.baton.framework.BatonClient;
import dev.baton.recipes.election.LeaderLatch;
import dev.baton.recipes.election.LeaderLatchListener;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.Lifecycle;
import org.springframework.context.SmartLifecycle;

/**
 * Takes part in a leader election while the application context runs, and starts and stops
 * beans as this instance gains and loses leadership.
 *
 * <p>Algorithm: a {@link LeaderLatch} on the election's folder (Curator's layout), joined when
 * the context starts and left when it stops. Its listener runs on a thread of the initiator's
 * own: on a grant the {@link LeaderLifecycle} beans start, in order, then the
 * {@link LeadershipListener}s hear {@code granted}; on a revocation the listeners hear
 * {@code revoked}, then the beans stop in reverse order. With Spring Integration present a
 * listener publishes {@code OnGrantedEvent}/{@code OnRevokedEvent}, so endpoints with a matching
 * {@code @Role} follow leadership too.
 *
 * <p>Guarantees and caveats: the latch's. When this context stops (or the instance yields), the
 * beans have stopped before the latch's node is deleted, so before another instance can be
 * elected. When the servers end the term without this instance taking part (its session expired
 * during a long pause), it steps down when it hears of it, which may be after another was
 * elected: pass the term's token ({@link #leadershipToken()}, {@link LeadershipContext#token()})
 * to what the leader writes to. Under the STANDARD error policy a suspended connection already
 * revokes leadership.
 *
 * <pre>{@code
 * @Scheduled(cron = "0 0 2 * * *")              // fires on every instance...
 * void nightlyReport() throws IOException {
 *     initiator.runIfLeader(token -> reports.publish(today(), token));   // ...runs on the leader
 * }
 * }</pre>
 */
public final class BatonLeaderInitiator implements SmartLifecycle {
    private static final Logger LOG = LoggerFactory.getLogger(BatonLeaderInitiator.class);

    /** The default lifecycle phase: Spring Integration's leader initiators' (started late, stopped early). */
    public static final int DEFAULT_PHASE = Integer.MAX_VALUE - 1000;

    private final BatonClient client;
    private final String path;
    private final String role;
    private final String participantId;
    private final List<Lifecycle> lifecycles;
    private final List<LeadershipListener> listeners;
    private final int phase;

    // guarded by this
    private boolean running;
    private ExecutorService events;
    // written under this; read without it by hasLeadership()
    private volatile LeaderLatch latch;
    /** The current term while leading (set and cleared on the events thread only), else null. */
    private volatile LeadershipContext current;

    private BatonLeaderInitiator(Builder b) {
        this.client = b.client;
        this.path = b.path;
        this.role = b.role;
        this.participantId = b.participantId;
        this.lifecycles = List.copyOf(b.lifecycles);
        this.listeners = List.copyOf(b.listeners);
        this.phase = b.phase;
    }

    /**
     * {@return a builder of an initiator for the election in folder {@code path}}
     *
     * @param client the client whose session the latch's node belongs to
     * @param path the election's folder, such as {@code /baton/leadership/leader}
     */
    public static Builder builder(BatonClient client, String path) {
        return new Builder(client, path);
    }

    /** Joins the election (in the background: it returns at once). */
    @Override
    public void start() {
        synchronized (this) {
            if (running) {
                return;
            }
            events = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "baton-leadership-" + role);
                t.setDaemon(true);
                return t;
            });
            latch = newLatch();
            running = true;
            latch.start();
        }
    }

    /**
     * Leaves the election. If this instance leads, the listeners hear {@code revoked} and the
     * beans stop before this returns, and before another instance can be elected.
     */
    @Override
    public void stop() {
        LeaderLatch leaving;
        ExecutorService executor;
        synchronized (this) {
            if (!running) {
                return;
            }
            running = false;
            leaving = latch;
            executor = events;
        }
        leaving.close();
        executor.shutdown();
    }

    @Override
    public synchronized boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return phase;
    }

    /** {@return whether this instance leads now (the latch's checks of session, connection and lease included)} */
    public boolean isLeader() {
        LeaderLatch l = latch;
        return current != null && l != null && l.hasLeadership();
    }

    /** {@return the current term's fencing token, or {@link LeaderLatch#NO_TOKEN} when not leading} */
    public long leadershipToken() {
        LeadershipContext term = current;
        return term == null ? LeaderLatch.NO_TOKEN : term.token();
    }

    /** {@return the current term, or null when not leading} */
    public LeadershipContext context() {
        return current;
    }

    /**
     * Runs {@code task} with the term's fencing token if this instance leads now: the guard of a
     * {@code @Scheduled} method that must run on one instance of a fleet. The task runs on the
     * calling thread; whatever it throws reaches the caller.
     *
     * <p>Caveat: leadership is checked once, before the task. A task that outlives the term (the
     * session expired during a long pause) still runs to its end, so pass the token to what it
     * writes to, and have that refuse smaller tokens.
     *
     * @param <E> the checked exception the task may throw
     * @param task what the leader does, given the term's token
     * @return whether the task ran
     * @throws E if the task throws it
     */
    public <E extends Exception> boolean runIfLeader(LeaderTask<E> task) throws E {
        Objects.requireNonNull(task, "task");
        LeadershipContext term = current;
        if (term == null || !isLeader()) {
            return false;
        }
        task.run(term.token());
        return true;
    }

    /**
     * Steps down and joins the election again at the back of the line (does nothing when not
     * running). The beans stop before the old node is deleted.
     */
    public void yieldLeadership() {
        LeaderLatch old;
        LeaderLatch next;
        synchronized (this) {
            if (!running) {
                return;
            }
            old = latch;
            next = newLatch();
            latch = next;
        }
        // outside the lock: close() waits for the revocation, whose listeners may call back here
        old.close();
        synchronized (this) {
            if (running && latch == next) {
                next.start();
            }
        }
    }

    /** {@return the election's folder} */
    public String path() {
        return path;
    }

    /** {@return the role elected} */
    public String role() {
        return role;
    }

    /** {@return what this instance publishes as its participant id} */
    public String participantId() {
        return participantId;
    }

    private LeaderLatch newLatch() {
        LeaderLatch l = LeaderLatch.builder(client, path, participantId).listenerExecutor(events).build();
        l.addListener(LeaderLatchListener.of(this::granted, this::revoked));
        return l;
    }

    /** On the events thread: start the beans, then tell the listeners. */
    private void granted(long token) {
        LeadershipContext term = new LeadershipContext(this, role, token);
        current = term;
        LOG.info("{} leads {} (role '{}', token {})", participantId, path, role, token);
        for (Lifecycle bean : lifecycles) {
            try {
                bean.start();
            } catch (RuntimeException e) {
                LOG.error("leader bean {} failed to start on grant of role '{}'", bean, role, e);
            }
        }
        for (LeadershipListener listener : listeners) {
            try {
                listener.granted(term);
            } catch (RuntimeException e) {
                LOG.error("leadership listener {} failed on grant of role '{}'", listener, role, e);
            }
        }
    }

    /** On the events thread: tell the listeners, then stop the beans in reverse order. */
    private void revoked() {
        LeadershipContext term = current;
        if (term == null) {
            return;
        }
        current = null;
        LOG.info("{} no longer leads {} (role '{}', token {})", participantId, path, role, term.token());
        for (LeadershipListener listener : listeners) {
            try {
                listener.revoked(term);
            } catch (RuntimeException e) {
                LOG.error("leadership listener {} failed on revocation of role '{}'", listener, role, e);
            }
        }
        for (int i = lifecycles.size() - 1; i >= 0; i--) {
            Lifecycle bean = lifecycles.get(i);
            try {
                if (bean.isRunning()) {
                    bean.stop();
                }
            } catch (RuntimeException e) {
                LOG.error("leader bean {} failed to stop on revocation of role '{}'", bean, role, e);
            }
        }
    }

    @Override
    public String toString() {
        return "BatonLeaderInitiator[" + participantId + " for role '" + role + "' on " + path
            + (current != null ? ", leading, token " + current.token() : "") + "]";
    }

    /** Configures a {@link BatonLeaderInitiator}; each setting is checked as it is set. */
    public static final class Builder {
        private final BatonClient client;
        private final String path;
        private String role = "leader";
        private String participantId;
        private final List<Lifecycle> lifecycles = new ArrayList<>();
        private final List<LeadershipListener> listeners = new ArrayList<>();
        private int phase = DEFAULT_PHASE;

        private Builder(BatonClient client, String path) {
            this.client = Objects.requireNonNull(client, "client");
            this.path = Objects.requireNonNull(path, "path");
        }

        /**
         * The role elected, named in events. Default {@code "leader"}.
         *
         * @param role the role, not empty
         * @return this builder
         */
        public Builder role(String role) {
            if (role == null || role.isEmpty()) {
                throw new IllegalArgumentException("role must not be empty, was " + (role == null ? "null" : "''"));
            }
            this.role = role;
            return this;
        }

        /**
         * What this instance publishes in its node. Default: the JVM's {@code pid@host}.
         *
         * @param participantId the participant id
         * @return this builder
         */
        public Builder participantId(String participantId) {
            this.participantId = Objects.requireNonNull(participantId, "participantId");
            return this;
        }

        /**
         * Beans to start on a grant (in this order) and stop on a revocation (in reverse).
         *
         * @param beans the beans; none may be a {@code SmartLifecycle} that starts itself
         * @return this builder
         * @throws IllegalArgumentException if one starts itself with the context
         */
        public Builder lifecycles(List<? extends Lifecycle> beans) {
            for (Lifecycle bean : beans) {
                if (bean instanceof SmartLifecycle smart && smart.isAutoStartup()) {
                    throw new IllegalArgumentException(bean + " is a SmartLifecycle that starts itself with the context, "
                        + "so it would run on every instance, leader or not: make isAutoStartup() return false, "
                        + "or implement plain Lifecycle");
                }
                lifecycles.add(bean);
            }
            return this;
        }

        /**
         * Listeners told of grants and revocations.
         *
         * @param more the listeners
         * @return this builder
         */
        public Builder listeners(List<? extends LeadershipListener> more) {
            more.forEach(l -> listeners.add(Objects.requireNonNull(l, "listener")));
            return this;
        }

        /**
         * The lifecycle phase. Default {@link #DEFAULT_PHASE}.
         *
         * @param phase the phase
         * @return this builder
         */
        public Builder phase(int phase) {
            this.phase = phase;
            return this;
        }

        /** {@return the initiator, not yet started} */
        public BatonLeaderInitiator build() {
            if (participantId == null) {
                participantId = ManagementFactory.getRuntimeMXBean().getName();
            }
            return new BatonLeaderInitiator(this);
        }
    }
}
