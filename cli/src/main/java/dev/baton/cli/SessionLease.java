package dev.baton.cli;

import dev.baton.cli.internal.GuardedChild;
import dev.baton.framework.BatonClient;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.apache.zookeeper.ZooKeeper;

/**
 * The lease a command runs under ({@link GuardedChild}): it must be dead by the last time the
 * servers certainly heard from baton's session, plus the session timeout they granted, less
 * {@link HoldOptions#MARGIN} — before they can have expired the session and let anyone else hold.
 *
 * <p>The servers' last word is the framework's {@link BatonClient#lastServerContactNanos()}: the
 * send time of the latest request they answered. So that it stays fresh while the command runs,
 * each renewal sends a {@code sync} on the recipe's path — a round trip through the leader, which
 * a follower cut off from it cannot answer. Renewed every sixth of the timeout, the deadline stays
 * at least half the timeout ahead while baton and the servers are well; once the hold is lost, it
 * is the loss plus the kill grace, as baton's own stop has it.
 *
 * <p>The timeout is the one the servers granted: the least of what {@link GraceCheck} read while
 * connected, what the ZooKeeper handle says it granted its session (which it keeps through a
 * disconnect) and what the client reports now — never more than granted, even while a
 * disconnected client reports the timeout asked for.
 */
final class SessionLease implements GuardedChild.Lease {
    private final BatonClient client;
    private final String path;
    private final GraceCheck grace;
    private final Duration asked;
    private final Duration killGrace;
    private volatile long lostAt;
    private volatile boolean lost;
    private CompletableFuture<Void> renewal = CompletableFuture.completedFuture(null);

    SessionLease(BatonClient client, String path, GraceCheck grace, Duration asked, Duration killGrace) {
        this.client = client;
        this.path = path;
        this.grace = grace;
        this.asked = asked;
        this.killGrace = killGrace;
    }

    /** The hold is gone: from now on the command must be dead a kill grace after this moment. */
    void lost() {
        if (!lost) {
            lostAt = System.nanoTime();
            lost = true;
        }
    }

    @Override
    public long deadlineNanos() {
        if (lost) {
            return lostAt + killGrace.toNanos();
        }
        return client.lastServerContactNanos() + timeout().toNanos() - HoldOptions.MARGIN.toNanos();
    }

    @Override
    public void renew() {
        // one round trip at a time: while the servers do not answer, asking again proves nothing more
        if (renewal.isDone()) {
            renewal = client.sync().forPathAsync(path);
        }
    }

    @Override
    public Duration period() {
        return timeout().dividedBy(6);
    }

    private Duration timeout() {
        // before GraceCheck has read the granted timeout, the one asked for: the servers grant no more (above their minimum)
        Duration shortest = grace.granted().orElse(asked);
        // the ZooKeeper handle keeps the timeout granted to its session through a disconnect (0 before it first
        // connects), where the client's own answer may fall back to the one asked for
        ZooKeeper zk = client.zookeeper();
        int handle = zk == null ? 0 : zk.getSessionTimeout();
        if (handle > 0 && handle < shortest.toMillis()) {
            shortest = Duration.ofMillis(handle);
        }
        Duration now = client.negotiatedSessionTimeout();
        return shortest.compareTo(now) < 0 ? shortest : now;
    }
}
