package dev.baton.recipes.barrier;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ChangeSignal;
import dev.baton.framework.Deadline;
import dev.baton.framework.NodeExistsException;
import dev.baton.framework.SessionExpiredException;
import dev.baton.framework.TransactionFailedException;
import dev.baton.framework.TransactionResult;
import dev.baton.framework.ZPaths;
import dev.baton.recipes.barrier.BarrierRounds.Round;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;

/**
 * Lets a fixed number of members start together and finish together: {@link #enter()} returns
 * once {@code memberQty} members have entered, {@link #leave()} once all of them have left.
 *
 * <p>Algorithm. Each member is an ephemeral node {@code <uuid>} under the barrier's path (a child
 * named otherwise, such as another recipe's node below the path, is no member). A member
 * that arrives and counts {@code memberQty} members creates {@code ready}, in one transaction with
 * a check that every member it counted is still there; everyone else watches {@code ready} alone,
 * so each waiter is woken by one event, not by every arrival. A member passes only when
 * {@code ready} was created after its own node — a {@code ready} left over from the previous round
 * (whose members are still leaving) never lets a newcomer through alone; the newcomer steps back
 * until that round is over. To leave, a member deletes its node and waits for the lowest member to
 * go; the lowest waits for the highest, one at a time, and goes last. The member that finds nobody
 * left closes the round: it deletes {@code ready} in a transaction guarded by the barrier node's
 * data version, which each close bumps, so a round is closed exactly once — never twice, and never
 * by a late or retried close reaching into the next round. A round whose members all crashed or
 * gave up is closed by the next newcomer. Leaving ends as soon as the round's {@code ready} is
 * gone, so a leaver never waits on a member of the next round.
 *
 * <p>Guarantees and caveats: nobody passes {@code enter} before {@code memberQty} members are
 * present. A member whose session dies counts as gone (its node is ephemeral) — a process killed
 * without closing its client only once the servers expire its session, so until then it counts
 * and the others' {@code leave} waits for it. A waiting member whose session expires re-enters with its new session, in the next round if this one completed
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
    private enum State { IDLE, ENTERING, ENTERED, LEAVING }

    private final BatonClient client;
    private final String path;
    private final int memberQty;
    /** This member's node for the current round: a fresh name each round, so a node left over never counts twice. */
    private volatile String memberName = UUID.randomUUID().toString();
    private volatile String memberPath;
    private final String readyPath;
    private final BarrierRounds rounds;
    private State state = State.IDLE;
    private CompletableFuture<Boolean> entering;
    /** The round this member entered; what {@code leave} waits out. */
    private volatile Round round = Round.NONE;
    private final AtomicReference<Deadline> roundDeadline = new AtomicReference<>(Deadline.none());

    /**
     * A member of the double barrier at {@code path} for {@code memberQty} members.
     *
     * @param client the client whose session this member's node belongs to
     * @param path the barrier's folder, such as {@code /jobs/nightly}
     * @param memberQty how many members enter and leave together, 1 or more (every member must give the same
     *     number)
     * @throws dev.baton.framework.InvalidPathException if {@code path} is not a valid folder for a recipe
     */
    public DistributedDoubleBarrier(BatonClient client, String path, int memberQty) {
        this.client = Objects.requireNonNull(client, "client");
        this.path = ZPaths.validateRecipePath("DistributedDoubleBarrier", path);
        if (memberQty < 1) {
            throw new IllegalArgumentException("memberQty must be at least 1, was " + memberQty);
        }
        this.memberQty = memberQty;
        this.memberPath = ZPaths.join(path, memberName);
        this.readyPath = ZPaths.join(path, BarrierRounds.READY);
        this.rounds = new BarrierRounds(this.client, this.path);
    }

    /**
     * Waits until {@code memberQty} members have entered.
     *
     * @throws BarrierException if another thread entering through this same instance gave a
     *     timeout that ended the wait first (the member did not enter)
     * @throws dev.baton.framework.ClientClosedException if the client is closed before or while it waits
     * @throws InterruptedException if the calling thread is interrupted while it waits (its node is removed)
     */
    public void enter() throws InterruptedException {
        if (!enter(Deadline.none())) {
            throw new BarrierException("enter() on " + path + " did not enter: a thread entering through the same"
                + " member gave a timeout that ended the wait");
        }
    }

    /**
     * Waits up to {@code timeout} for {@code memberQty} members; false (and no node left) on timeout.
     *
     * @param timeout how long to wait at most
     * @return whether the member entered
     * @throws dev.baton.framework.ClientClosedException if the client is closed before or while it waits
     * @throws InterruptedException if the calling thread is interrupted while it waits (its node is removed)
     */
    public boolean enter(Duration timeout) throws InterruptedException {
        return enter(Deadline.afterNonNegative(timeout, client.ticker()));
    }

    private boolean enter(Deadline deadline) throws InterruptedException {
        return ObservedWait.run(client, "double-barrier-enter", path, () -> enterWaiting(deadline));
    }

    private boolean enterWaiting(Deadline deadline) throws InterruptedException {
        CompletableFuture<Boolean> mine;
        boolean first;
        synchronized (this) {
            switch (state) {
                case ENTERED -> {
                    return true;
                }
                case ENTERING -> {
                    roundDeadline.accumulateAndGet(deadline, Deadline::orEarlier);
                    mine = entering;
                    first = false;
                }
                case IDLE -> {
                    state = State.ENTERING;
                    memberName = UUID.randomUUID().toString();
                    memberPath = ZPaths.join(path, memberName);
                    roundDeadline.set(deadline);
                    entering = mine = new CompletableFuture<>();
                    first = true;
                }
                case LEAVING -> throw new IllegalStateException("enter() called while this member is leaving " + path);
                default -> throw new AssertionError(state);
            }
        }
        if (!first) {
            return await(mine);
        }
        try {
            boolean passed = runEnter();
            finish(passed ? State.ENTERED : State.IDLE);
            mine.complete(passed);
            return passed;
        } catch (InterruptedException | RuntimeException | Error e) {
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
        // just joined: list the children first. Without ready among them no round is on, and the listing
        // alone says who is there (us included), one round trip before the count; with ready, look at it.
        boolean listFirst = true;
        BarrierRounds.Look lookedAtWake = null;   // the look that ended the last wait, for the loop to go on from
        while (true) {
            try {
                List<String> members;
                boolean present;
                if (listFirst) {
                    listFirst = false;
                    BarrierRounds.Listing listing = rounds.listing();
                    if (listing.ready()) {
                        continue;   // a round is on (or still leaving): the look below tells which
                    }
                    members = listing.members();
                    present = members.contains(memberName);
                } else {
                    BarrierRounds.Look look = lookedAtWake != null ? lookedAtWake : rounds.look(memberPath);
                    lookedAtWake = null;
                    Round seen = look.round();
                    Stat me = look.member();
                    if (seen.readyCzxid() > myCzxid) {
                        if (me != null && me.getCzxid() == myCzxid) {
                            // our node lived from before ready until now, so it was there when ready was made
                            round = seen;
                            return true;
                        }
                        // our session ended meanwhile: that round may have gone on without us; join again
                        myCzxid = join();
                        continue;
                    }
                    if (seen.hasReady()) {
                        // the previous round is still leaving: step back until it is over, then join again
                        if (!rounds.stepBack(seen, memberPath)) {
                            continue;   // that round closed just now, and we may be counted in the next: look again
                        }
                        if (!rounds.awaitRoundOver(seen, roundDeadline::get)) {
                            return false;
                        }
                        myCzxid = join();
                        continue;
                    }
                    members = rounds.members();
                    present = me != null;
                }
                if (members.size() >= memberQty) {
                    rounds.createReady(members);
                    continue;   // look at what is there now, whoever created it
                }
                if (!present) {
                    // our session ended while we waited: we count as gone; join again with the new one
                    myCzxid = join();
                    listFirst = true;
                    continue;
                }
                // wake when ready appears, or when our own node vanishes (our session ended); once woken, look at
                // the round at once (reading ready again first would cost every waiter a round trip), and inside
                // the wait: a connection lost again just after the reconnect that woke us only means waiting for the
                // next one, where outside it the look's failure would end enter()
                boolean[] watching = {false};
                BarrierRounds.Look[] woke = {null};
                boolean woken = ChangeSignal.awaitCondition(client, watcher -> {
                    if (watching[0]) {
                        if (!client.connectionState().isConnected()) {
                            return false;   // the reconnect wakes us again (a closed client's wait ends in ChangeSignal)
                        }
                        woke[0] = rounds.look(memberPath);   // a watched node changed, or the client reconnected
                        return true;
                    }
                    watching[0] = true;
                    return client.checkExists().usingWatcher(watcher).forPath(readyPath) != null
                        || client.checkExists().usingWatcher(watcher).forPath(memberPath) == null;
                }, roundDeadline::get);
                if (!woken) {
                    return withdraw(myCzxid);
                }
                lookedAtWake = woke[0];
            } catch (SessionExpiredException e) {
                // the session ended under us: wait for the client's new one, then look again (our
                // node went with the old session, and the loop joins again when it finds it gone)
                if (!ChangeSignal.awaitCondition(client, watcher -> client.connectionState().isConnected(), roundDeadline::get)) {
                    return false;
                }
                myCzxid = joinIfGone(myCzxid);
            }
        }
    }

    /** Our node, joined again if it is gone; its creation zxid. */
    private long joinIfGone(long myCzxid) throws InterruptedException {
        Stat me = client.checkExists().forPath(memberPath);
        return me != null ? me.getCzxid() : join();
    }

    /**
     * Our wait timed out: remove our node. If {@code ready} was created while our node was still
     * there (after our node, before its deletion), we were counted in the round, so we are in
     * (late, but the others rely on us). The deletion's zxid comes from a setData in the same
     * transaction.
     */
    private boolean withdraw(long myCzxid) throws InterruptedException {
        long deletedAt;
        try {
            List<TransactionResult> done = client.transaction().setData(memberPath, new byte[0]).delete(memberPath).commit();
            deletedAt = done.get(0).stat().getMzxid();
        } catch (TransactionFailedException e) {
            if (e.code() != KeeperException.Code.NONODE) {
                throw e;
            }
            return false;   // our node was already gone (our session ended): we were nobody's member
        }
        Round seen = rounds.readRound();
        if (seen.readyCzxid() > myCzxid && seen.readyCzxid() < deletedAt) {
            round = seen;
            return true;
        }
        return false;
    }

    /**
     * Waits until every member has left.
     *
     * @throws dev.baton.framework.ClientClosedException if the client is closed before or while it waits
     * @throws InterruptedException if the calling thread is interrupted while it waits
     */
    public void leave() throws InterruptedException {
        leave(Deadline.none());
    }

    /**
     * Waits up to {@code timeout} for every member to leave; false (and our node removed) on timeout.
     *
     * @param timeout how long to wait at most
     * @return whether every member left in time
     * @throws dev.baton.framework.ClientClosedException if the client is closed before or while it waits
     * @throws InterruptedException if the calling thread is interrupted while it waits
     */
    public boolean leave(Duration timeout) throws InterruptedException {
        return leave(Deadline.afterNonNegative(timeout, client.ticker()));
    }

    private boolean leave(Deadline deadline) throws InterruptedException {
        return ObservedWait.run(client, "double-barrier-leave", path, () -> leaveWaiting(deadline));
    }

    private boolean leaveWaiting(Deadline deadline) throws InterruptedException {
        synchronized (this) {
            if (state != State.ENTERED) {
                throw new IllegalStateException("leave() needs a successful enter() first; this member is " + state);
            }
            state = State.LEAVING;
        }
        try {
            boolean left = runLeave(deadline);
            if (!left) {
                client.delete().quietly().forPath(memberPath);
            }
            return left;
        } catch (InterruptedException | RuntimeException | Error e) {
            // a member that failed to leave must not linger and count in a later round
            client.delete().quietly().guaranteed().forPathAsync(memberPath);
            throw e;
        } finally {
            finish(State.IDLE);
        }
    }

    private boolean runLeave(Deadline deadline) throws InterruptedException {
        Round mine = round;
        while (true) {
            if (rounds.isOver(mine, null)) {
                client.delete().quietly().forPath(memberPath);
                return true;
            }
            List<String> others = rounds.members();
            boolean present = others.remove(memberName);
            if (others.isEmpty()) {
                rounds.close(mine, present ? memberPath : null);
                return true;
            }
            String waitFor;
            if (present && memberName.compareTo(others.get(0)) < 0) {
                waitFor = others.get(others.size() - 1);   // the lowest waits for the highest and goes last
            } else {
                if (present) {
                    client.delete().quietly().forPath(memberPath);
                }
                waitFor = others.get(0);
            }
            String waitPath = ZPaths.join(path, waitFor);
            boolean woken = ChangeSignal.awaitCondition(client, watcher ->
                client.checkExists().usingWatcher(watcher).forPath(waitPath) == null || rounds.isOver(mine, watcher), deadline);
            if (!woken) {
                client.delete().quietly().forPath(memberPath);
                if (!rounds.isOver(mine, null) && rounds.members().isEmpty()) {
                    rounds.close(mine, null);   // we were the last one out, even if we gave up waiting
                }
                return false;
            }
        }
    }

    /** {@return this member's node name in the current (or last) round} */
    public String memberName() {
        return memberName;
    }

    /**
     * Creates our member node (idempotently) and returns its creation zxid. A node of that name
     * held by an older session of ours (the client gave that session up before the servers
     * expired it) is deleted and created again, so it is owned by the session we wait in.
     */
    private long join() throws InterruptedException {
        rounds.ensureBarrierNode();
        try {
            return client.create().withMode(CreateMode.EPHEMERAL).creatingParentContainersIfNeeded().idempotent()
                .forPathWithStat(memberPath, new byte[0]).stat().getCzxid();
        } catch (NodeExistsException ownedByAnOldSession) {
            client.delete().quietly().forPath(memberPath);
            return client.create().withMode(CreateMode.EPHEMERAL).creatingParentContainersIfNeeded().idempotent()
                .forPathWithStat(memberPath, new byte[0]).stat().getCzxid();
        }
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
