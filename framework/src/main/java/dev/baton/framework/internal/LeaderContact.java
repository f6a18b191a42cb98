package dev.baton.framework.internal;

import dev.baton.framework.BatonClient;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.KeeperException;

/**
 * The confirmed-contact clock: the latest moment the ensemble's <em>leader</em> certainly heard
 * from the current session, so that the session cannot expire before that moment plus the
 * session timeout. Locks and leaderships that promise "gone before anyone else can have it"
 * (locks under {@code STANDARD}, elections under {@code CONNECTION} and {@code LEASE}) end their
 * holds by this clock.
 *
 * <p>Why not the last reply. A client talks to one server. A follower cut off from its leader
 * keeps answering its clients' pings and reads until its own {@code syncLimit} timeout, while the
 * leader, which alone expires sessions, hears nothing of them and expires the session one session
 * timeout after it last heard of it. Only a request the follower must forward to the leader (a
 * {@code sync} or a write) proves the route to the leader was open.
 *
 * <p>The rule. The leader learns that a session is alive from the session's "touches", which a
 * follower collects from its clients' requests and pings and passes on in its reply to the
 * leader's next ping (sent every half tick): a touch can reach the leader up to half a tick after
 * the request that made it, and is lost if the route is cut before. A round trip the leader
 * answered, sent at {@code s}, travelled on the follower's one ordered connection to the leader,
 * behind every ping reply the follower had sent. Hence:
 * <ul>
 *   <li>a request of the session answered (touching its server) by {@code r}, with
 *       {@code r <= s - PING_LAG}, reached the leader before that confirmed round trip did: the
 *       clock advances to that request's <em>send</em> time;
 *   <li>without such a pair, ZooKeeper's own client pings after a third of the session timeout
 *       of silence, so some touch older than {@code PING_LAG} reached the leader no earlier than
 *       {@code s - PING_LAG - T/3}: the clock advances at least to that.
 * </ul>
 * {@code PING_LAG} is a quarter of the session timeout {@code T}: the leader's ping interval is
 * half a tick, and servers with ZooKeeper's default minimum session timeout (two ticks) never
 * grant a session shorter than two ticks. Each confirmed round trip is kept until a later one
 * settles it, at most one per eighth of {@code T}.
 *
 * <p>Keeping it fresh. While anything {@link #keepFresh() keeps} the clock (a hold, an attempt
 * waiting in line), a {@code sync} goes to the leader every {@code PING_LAG} after the previous
 * one's reply: the next one settles it, so the clock trails the present by at most about
 * {@code 2 * PING_LAG} plus two round trips, and a hold's deadline (clock + {@code T} - margin)
 * stays about half a session timeout ahead. The cost is four syncs per session timeout per
 * client that holds or waits (a sync is forwarded to the leader and answered without a write),
 * none for a client that holds nothing, and none for holds shorter than {@code PING_LAG} (the
 * first sync is sent {@code PING_LAG} after the clock started being kept).
 *
 * <p>Caveats. Client and servers must measure time at the same rate (a monotonic clock on each;
 * drift over one session timeout is negligible). Servers configured to grant sessions shorter
 * than two ticks break the {@code PING_LAG} bound. A partition that heals in the very moment a
 * probe crosses it, and timer latency, are what the holds' margin covers.
 */
public final class LeaderContact {
    private final Connection connection;
    private final ScheduledExecutorService scheduler;
    private final Executor async;

    // guarded by this
    private final ConfirmedClock clock;
    private final Set<OwnDeadline> deadlines = new HashSet<>();
    private int keepers;
    private boolean probing;
    private ScheduledFuture<?> deadlineTimer;
    private long timerAt;

    public LeaderContact(Connection connection, ScheduledExecutorService scheduler, Executor async) {
        this.connection = connection;
        this.scheduler = scheduler;
        this.async = async;
        this.clock = new ConfirmedClock(System.nanoTime(), timeoutNanos());
    }

    /**
     * The clock of the client behind {@code client}, or null for a client that is not Baton's own
     * (a test's wrapper): such a client's holds get the generic {@link #watch(BatonClient, long, Duration, Runnable)}.
     */
    private static LeaderContact of(BatonClient client) {
        return client instanceof NamespacedClient own ? own.core.leaderContact : null;
    }

    /**
     * When (System.nanoTime) the leader last certainly heard from session {@code sessionId}; for
     * another session than the clock's, a time more than a session timeout ago.
     */
    public synchronized long contactNanos(long sessionId) {
        return clock.contactNanos(sessionId, System.nanoTime(), timeoutNanos());
    }

    /**
     * A request of session {@code sessionId} sent at {@code sentNanos} was answered at
     * {@code repliedNanos} by the leader (a write or a sync).
     */
    public synchronized void confirmed(long sessionId, long sentNanos, long repliedNanos) {
        clock.confirmed(sessionId, sentNanos, repliedNanos, System.nanoTime(), timeoutNanos());
    }

    /** A registration that keeps the clock fresh until closed. */
    public interface Keep extends AutoCloseable {
        @Override
        void close();
    }

    /** Keeps the clock fresh (a sync every quarter session timeout) until the returned handle is closed. */
    public Keep keepFresh() {
        synchronized (this) {
            keepers++;
            startProbing();
        }
        return new Keep() {
            private boolean closed;

            @Override
            public void close() {
                synchronized (LeaderContact.this) {
                    if (!closed) {
                        closed = true;
                        keepers--;
                    }
                }
            }
        };
    }

    /** {@link #keepFresh()} of {@code client}'s clock; a no-op for a client that is not Baton's own. */
    public static Keep keepFresh(BatonClient client) {
        LeaderContact contact = of(client);
        return contact != null ? contact.keepFresh() : () -> { };
    }

    /**
     * Watches the deadline of a hold on session {@code sessionId}: contact + session timeout -
     * {@code margin}. Runs {@code expired} once, on the client's async executor, when it passes;
     * keeps the clock fresh meanwhile. Closing the deadline stops both.
     */
    public static Deadline watch(BatonClient client, long sessionId, Duration margin, Runnable expired) {
        LeaderContact contact = of(client);
        return contact != null ? contact.watch(sessionId, margin.toNanos(), expired) : new ForeignDeadline(client, sessionId, margin, expired);
    }

    private Deadline watch(long sessionId, long marginNanos, Runnable expired) {
        OwnDeadline deadline = new OwnDeadline(sessionId, marginNanos, expired, keepFresh());
        synchronized (this) {
            deadlines.add(deadline);
        }
        armDeadlineTimer();
        return deadline;
    }

    /** A hold's deadline on the confirmed-contact clock. */
    public interface Deadline extends AutoCloseable {
        /** Whether the deadline has passed (the hold can no longer be trusted). */
        boolean passed();

        /** Stops watching; {@code expired} does not run after this. */
        @Override
        void close();
    }

    private long timeoutNanos() {
        return connection.negotiatedSessionTimeout().toNanos();
    }

    // ---- the keeper: one sync at a time, PING_LAG after the last reply, while anything keeps the clock ----

    /** Caller holds this. */
    private void startProbing() {
        if (!probing) {
            probing = schedule(this::probe, ConfirmedClock.pingLag(timeoutNanos())) != null;
        }
    }

    /** Schedules {@code task} on the client's scheduler; null once the client is closed (nothing to keep then). */
    private ScheduledFuture<?> schedule(Runnable task, long delayNanos) {
        try {
            return scheduler.schedule(task, delayNanos, TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException closed) {
            return null;
        }
    }

    private void probe() {
        synchronized (this) {
            if (keepers == 0) {
                probing = false;
                return;
            }
        }
        connection.whenConnected("sync", "/").whenComplete((zk, notConnected) -> {
            if (notConnected != null) {
                probeDone();
                return;
            }
            long sent = System.nanoTime();
            zk.sync("/", (rc, path, ctx) -> {
                if (rc == KeeperException.Code.OK.intValue()) {
                    confirmed(zk.getSessionId(), sent, System.nanoTime());
                }
                probeDone();
            }, null);
        });
    }

    private void probeDone() {
        synchronized (this) {
            if (keepers == 0 || schedule(this::probe, ConfirmedClock.pingLag(timeoutNanos())) == null) {
                probing = false;
            }
        }
    }

    // ---- deadlines: one timer per client, at the earliest deadline of the holds it watches ----

    private void armDeadlineTimer() {
        synchronized (this) {
            if (deadlines.isEmpty()) {
                return;
            }
            long earliest = 0;
            boolean first = true;
            for (OwnDeadline d : deadlines) {
                long at = d.at();
                if (first || at - earliest < 0) {
                    earliest = at;
                    first = false;
                }
            }
            if (deadlineTimer != null && !deadlineTimer.isDone() && timerAt - earliest <= 0) {
                return; // the armed timer fires first; it re-arms for the rest
            }
            if (deadlineTimer != null) {
                deadlineTimer.cancel(false);
            }
            timerAt = earliest;
            deadlineTimer = schedule(this::checkDeadlines, Math.max(0, earliest - System.nanoTime()));
        }
    }

    private void checkDeadlines() {
        List<OwnDeadline> due;
        synchronized (this) {
            deadlineTimer = null;
            due = deadlines.stream().filter(OwnDeadline::passed).toList();
        }
        for (OwnDeadline deadline : due) {
            deadline.expire();
        }
        armDeadlineTimer();
    }

    private final class OwnDeadline implements Deadline {
        private final long sessionId;
        private final long marginNanos;
        private final Runnable expired;
        private final Keep keep;
        private boolean done;

        OwnDeadline(long sessionId, long marginNanos, Runnable expired, Keep keep) {
            this.sessionId = sessionId;
            this.marginNanos = marginNanos;
            this.expired = expired;
            this.keep = keep;
        }

        long at() {
            return contactNanos(sessionId) + timeoutNanos() - marginNanos;
        }

        @Override
        public boolean passed() {
            return System.nanoTime() - at() >= 0;
        }

        void expire() {
            if (end()) {
                try {
                    async.execute(expired);
                } catch (RejectedExecutionException closed) {
                    // the client is closed: its holds end with it
                }
            }
        }

        @Override
        public void close() {
            end();
        }

        /** Ends watching; true the first time. */
        private boolean end() {
            synchronized (LeaderContact.this) {
                if (done) {
                    return false;
                }
                done = true;
                deadlines.remove(this);
            }
            keep.close();
            return true;
        }
    }

    /**
     * The deadline of a hold on a client that is not Baton's own: the same rule on the public
     * {@link BatonClient#leaderContactNanos()}, with a timer per hold and nobody keeping the clock
     * fresh beyond the wrapped client's own writes.
     */
    private static final class ForeignDeadline implements Deadline {
        private final BatonClient client;
        private final long sessionId;
        private final long marginNanos;
        private final Runnable expired;
        private boolean done;

        ForeignDeadline(BatonClient client, long sessionId, Duration margin, Runnable expired) {
            this.client = client;
            this.sessionId = sessionId;
            this.marginNanos = margin.toNanos();
            this.expired = expired;
            arm();
        }

        private long at() {
            return client.leaderContactNanos() + client.negotiatedSessionTimeout().toNanos() - marginNanos;
        }

        @Override
        public boolean passed() {
            return client.sessionId() != sessionId || System.nanoTime() - at() >= 0;
        }

        private void arm() {
            long delay = Math.max(0, at() - System.nanoTime());
            CompletableFuture.delayedExecutor(delay, TimeUnit.NANOSECONDS, client.asyncExecutor()).execute(this::check);
        }

        private void check() {
            boolean expire;
            synchronized (this) {
                if (done) {
                    return;
                }
                expire = passed();
                done = expire;
            }
            if (expire) {
                expired.run();
            } else {
                arm();
            }
        }

        @Override
        public synchronized void close() {
            done = true;
        }
    }
}
