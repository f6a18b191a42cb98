package dev.baton.recipes.barrier;

import dev.baton.framework.BatonClient;
import dev.baton.framework.NoNodeException;
import dev.baton.framework.NodeExistsException;
import dev.baton.framework.ZPaths;
import dev.baton.recipes.barrier.internal.NodeWait;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.data.Stat;

/**
 * Lets a fixed number of members start together and finish together: {@link #enter()} returns
 * once {@code memberQty} members have entered, {@link #leave()} once all of them have left.
 *
 * <p>Algorithm. Each member is an ephemeral node {@code <uuid>} under the barrier's path. A member
 * that arrives and counts {@code memberQty} members creates {@code ready}; everyone else watches
 * {@code ready} alone, so each waiter is woken by one event, not by every arrival. A member
 * passes only when {@code ready} was created after its own node — a {@code ready} left over from
 * the previous round (whose members are still leaving) never lets a newcomer through alone; the
 * newcomer steps back until that round is over. To leave, a member deletes its node and waits for
 * the lowest member to go; the lowest waits for the highest, one at a time, and goes last; the
 * member that finds nobody left deletes {@code ready}, so the barrier can be used again.
 *
 * <p>Guarantees and caveats: nobody passes {@code enter} before {@code memberQty} members are
 * present. A member whose session dies counts as gone (its node is ephemeral); if that happens
 * while it waits, it re-enters with its new session, in the next round if this one completed
 * without it. A timed-out {@code enter} or {@code leave} removes its own node and returns false —
 * it never loops. Several threads entering through one instance are one member and all get the
 * same answer; the round then ends at the earliest of their timeouts.
 *
 * <pre>{@code
 * DistributedDoubleBarrier barrier = new DistributedDoubleBarrier(client, "/jobs/nightly", 5);
 * if (barrier.enter(Duration.ofMinutes(1))) {   // all five workers start together
 *     work();
 *     barrier.leave(Duration.ofMinutes(1));     // and wait for each other at the end
 * }
 * }</pre>
 */
public final class DistributedDoubleBarrier {
    private static final String READY = "ready";

    private enum State { IDLE, ENTERING, ENTERED, LEAVING }

    private final BatonClient client;
    private final String path;
    private final int memberQty;
    /** This member's node for the current round: a fresh name each round, so a node left over never counts twice. */
    private volatile String memberName = UUID.randomUUID().toString();
    private volatile String memberPath;
    private final String readyPath;
    private State state = State.IDLE;
    private CompletableFuture<Boolean> round;
    private final AtomicLong roundDeadline = new AtomicLong();

    public DistributedDoubleBarrier(BatonClient client, String path, int memberQty) {
        this.client = Objects.requireNonNull(client, "client");
        this.path = ZPaths.validate("DistributedDoubleBarrier", path);
        if (memberQty < 1) {
            throw new IllegalArgumentException("memberQty must be at least 1, was " + memberQty);
        }
        this.memberQty = memberQty;
        this.memberPath = ZPaths.join(path, memberName);
        this.readyPath = ZPaths.join(path, READY);
    }

    /** Waits until {@code memberQty} members have entered. */
    public void enter() throws InterruptedException {
        enter(-1);
    }

    /** Waits up to {@code timeout} for {@code memberQty} members; false (and no node left) on timeout. */
    public boolean enter(Duration timeout) throws InterruptedException {
        return enter(Objects.requireNonNull(timeout, "timeout").toNanos());
    }

    private boolean enter(long timeoutNanos) throws InterruptedException {
        CompletableFuture<Boolean> mine;
        boolean entering;
        synchronized (this) {
            long deadline = NodeWait.deadline(timeoutNanos);
            switch (state) {
                case ENTERED -> {
                    return true;
                }
                case ENTERING -> {
                    roundDeadline.accumulateAndGet(deadline, Math::min);
                    mine = round;
                    entering = false;
                }
                case IDLE -> {
                    state = State.ENTERING;
                    memberName = UUID.randomUUID().toString();
                    memberPath = ZPaths.join(path, memberName);
                    roundDeadline.set(deadline);
                    round = mine = new CompletableFuture<>();
                    entering = true;
                }
                case LEAVING -> throw new IllegalStateException("enter() called while this member is leaving " + path);
                default -> throw new AssertionError(state);
            }
        }
        if (!entering) {
            return await(mine);
        }
        try {
            boolean passed = runEnter();
            finish(passed ? State.ENTERED : State.IDLE);
            mine.complete(passed);
            return passed;
        } catch (InterruptedException | RuntimeException e) {
            // whatever stopped us, leave no member node behind
            client.delete().quietly().guaranteed().forPathAsync(memberPath);
            finish(State.IDLE);
            mine.completeExceptionally(e);
            throw e;
        }
    }

    private synchronized void finish(State next) {
        state = next;
    }

    private boolean runEnter() throws InterruptedException {
        long myCzxid = join();
        while (true) {
            Stat ready = client.checkExists().forPath(readyPath);
            if (ready != null && ready.getCzxid() > myCzxid) {
                return true;
            }
            if (ready != null) {
                // the previous round is still leaving: step back until it is over, then join again
                client.delete().quietly().forPath(memberPath);
                if (!NodeWait.until(client, readyPath, stat -> stat == null, roundDeadline::get)) {
                    return false;
                }
                myCzxid = join();
                continue;
            }
            if (members().size() >= memberQty) {
                try {
                    client.create().forPath(readyPath);
                } catch (NodeExistsException someoneElseWasLast) {
                    // fine: look at it on the next round of the loop
                }
                continue;
            }
            Stat me = client.checkExists().forPath(memberPath);
            if (me == null) {
                // our session ended while we waited: we count as gone; join again with the new one
                myCzxid = join();
                continue;
            }
            // wake when ready appears, or when our own node vanishes (our session ended)
            boolean woken = NodeWait.until(client, watcher ->
                client.checkExists().usingWatcher(watcher).forPath(readyPath) != null
                    || client.checkExists().usingWatcher(watcher).forPath(memberPath) == null, roundDeadline::get);
            if (!woken) {
                client.delete().quietly().forPath(memberPath);
                return false;
            }
        }
    }

    /** Waits until every member has left. */
    public void leave() throws InterruptedException {
        leave(-1);
    }

    /** Waits up to {@code timeout} for every member to leave; false (and our node removed) on timeout. */
    public boolean leave(Duration timeout) throws InterruptedException {
        return leave(Objects.requireNonNull(timeout, "timeout").toNanos());
    }

    private synchronized boolean leave(long timeoutNanos) throws InterruptedException {
        if (state != State.ENTERED) {
            throw new IllegalStateException("leave() needs a successful enter() first; this member is " + state);
        }
        state = State.LEAVING;
        long deadline = NodeWait.deadline(timeoutNanos);
        try {
            boolean left = runLeave(deadline);
            if (!left) {
                client.delete().quietly().forPath(memberPath);
            }
            return left;
        } catch (InterruptedException | RuntimeException e) {
            // a member that failed to leave must not linger and count in a later round
            client.delete().quietly().guaranteed().forPathAsync(memberPath);
            throw e;
        } finally {
            state = State.IDLE;
        }
    }

    private boolean runLeave(long deadline) throws InterruptedException {
        while (true) {
            List<String> members = members();
            if (members.isEmpty() || members.equals(List.of(memberName))) {
                client.delete().quietly().forPath(memberPath);
                client.delete().quietly().forPath(readyPath);
                return true;
            }
            String lowest = members.get(0);
            String waitFor;
            if (lowest.equals(memberName)) {
                waitFor = members.get(members.size() - 1);
            } else {
                client.delete().quietly().forPath(memberPath);
                waitFor = lowest;
            }
            if (!NodeWait.until(client, ZPaths.join(path, waitFor), stat -> stat == null, deadline)) {
                return false;
            }
        }
    }

    /** This member's node name in the current (or last) round. */
    public String memberName() {
        return memberName;
    }

    /** Creates our member node (idempotently) and returns its creation zxid. */
    private long join() throws InterruptedException {
        return client.create().withMode(CreateMode.EPHEMERAL).creatingParentContainersIfNeeded().idempotent()
            .forPathWithStat(memberPath, new byte[0]).stat().getCzxid();
    }

    /** The members present now (names, sorted), without {@code ready}. */
    private List<String> members() throws InterruptedException {
        List<String> children;
        try {
            children = new ArrayList<>(client.getChildren().forPath(path));
        } catch (NoNodeException e) {
            return List.of();
        }
        children.remove(READY);
        Collections.sort(children);
        return children;
    }

    /** Another thread of this member is entering: its answer is ours. */
    private static boolean await(CompletableFuture<Boolean> round) throws InterruptedException {
        try {
            return round.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof InterruptedException) {
                throw new BarrierException("the thread entering for this member was interrupted", e.getCause());
            }
            throw new BarrierException("entering failed: " + e.getCause(), e.getCause());
        }
    }
}
