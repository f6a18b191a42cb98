package dev.baton.recipes.barrier;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ChangeSignal;
import dev.baton.framework.Deadline;
import dev.baton.framework.NoNodeException;
import dev.baton.framework.NodeData;
import dev.baton.framework.NodeExistsException;
import dev.baton.framework.TransactionBuilder;
import dev.baton.framework.TransactionFailedException;
import dev.baton.framework.ZPaths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.data.Stat;

/**
 * The rounds of one double barrier, as its node shows them: which round is on (its {@code ready}
 * node and the barrier node's version), who is there, and the transactions that open a round
 * (create {@code ready} while every counted member is there), step out of an old one, and close one
 * exactly once (guarded by the barrier node's data version, which every close bumps). What a member
 * does with them — joining, waiting, withdrawing, leaving — is
 * {@link dev.baton.recipes.barrier.DistributedDoubleBarrier}'s.
 */
final class BarrierRounds {
    /** The node whose creation opens a round (Curator's name). */
    public static final String READY = "ready";
    /**
     * A member's name: a random UUID, as Baton and Curator both name their members. Any other child
     * (another recipe's node below the barrier's path, such as a gate at {@code <path>/gate}) is no
     * member: counting it would let a member through alone and keep the leavers waiting for it.
     */
    private static final Pattern MEMBER = Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

    /**
     * The most data a barrier, {@code ready} or member node holds, for sizing a multi of reads of
     * them: Baton's and Curator's hold none (a larger node another tool wrote only makes its reads go
     * one by one).
     */
    private static final int SMALL_NODE_BYTES = 4 * 1024;

    private final BatonClient client;
    private final String path;
    private final String readyPath;
    private volatile boolean barrierNodeEnsured;

    public BarrierRounds(BatonClient client, String path) {
        this.client = client;
        this.path = path;
        this.readyPath = ZPaths.join(path, READY);
    }

    /**
     * Steps out of the line while an older round's {@code ready} stands — unless that round closed
     * meanwhile (the barrier node's version moved), in which case a newcomer may already have
     * counted us in the next round, and we stay.
     *
     * @return true if we stepped back (or our node was already gone), false if we stayed
     */
    public boolean stepBack(Round old, String memberPath) throws InterruptedException {
        try {
            client.transaction().check(path, old.parentVersion()).delete(memberPath).commit();
            return true;
        } catch (TransactionFailedException e) {
            if (e.failedIndex() == 0) {
                return false;
            }
            if (e.code() == KeeperException.Code.NONODE) {
                return true;   // our node went with our session (or a retried commit already deleted it)
            }
            throw e;
        }
    }

    /**
     * Creates {@code ready} only while every member we counted is still there: a member that
     * withdrew (timed out) between our count and our create makes the create fail, and we count
     * again. A reply lost to a connection loss is harmless: the retried transaction finds
     * {@code ready} existing, and we look again.
     */
    public void createReady(List<String> counted) throws InterruptedException {
        TransactionBuilder tx = client.transaction();
        for (String member : counted) {
            tx.check(ZPaths.join(path, member), -1);
        }
        tx.create(readyPath, new byte[0]);
        try {
            tx.commit();
        } catch (TransactionFailedException e) {
            if (e.code() != KeeperException.Code.NONODE && e.code() != KeeperException.Code.NODEEXISTS) {
                throw e;
            }
            // a counted member is gone, or ready exists: the caller looks again
        }
    }

    /**
     * Waits until the round that owns {@code ready} is over: {@code ready} is gone or replaced, or
     * no member of that round (a node created before {@code ready}) is left — its members crashed
     * or gave up leaving — in which case we close the round for them.
     */
    boolean awaitRoundOver(Round old, Supplier<Deadline> deadline) throws InterruptedException {
        return ChangeSignal.awaitCondition(client, watcher -> {
            if (isOver(old, watcher)) {
                return true;
            }
            List<String> children;
            try {
                children = client.getChildren().usingWatcher(watcher).forPath(path);
            } catch (NoNodeException gone) {
                return true;
            }
            for (String child : children) {
                if (!isMember(child)) {
                    continue;
                }
                Stat stat = client.checkExists().forPath(ZPaths.join(path, child));
                if (stat != null && stat.getCzxid() < old.readyCzxid()) {
                    return false;   // a member of that round is still there
                }
            }
            close(old, null);
            return true;
        }, deadline);
    }

    /** True once the round's {@code ready} is gone or replaced by a later round's. */
    public boolean isOver(Round r, Watcher watcher) throws InterruptedException {
        Stat ready = watcher == null ? client.checkExists().forPath(readyPath)
            : client.checkExists().usingWatcher(watcher).forPath(readyPath);
        return ready == null || ready.getCzxid() != r.readyCzxid();
    }

    /**
     * Ends a round: deletes {@code ready} (and {@code memberPath}, the closing member's node, unless
     * null) in one transaction
     * guarded by the barrier node's data version, which every close bumps. Only one close per round
     * can succeed, however many members decide at once that they are last, and a close retried
     * after a lost reply can never delete the {@code ready} of the round after.
     */
    public void close(Round r, String memberPath) throws InterruptedException {
        TransactionBuilder tx = client.transaction()
            .setData(path, r.parentData(), r.parentVersion())
            .delete(readyPath);
        if (memberPath != null) {
            tx.delete(memberPath);
        }
        try {
            tx.commit();
        } catch (TransactionFailedException e) {
            if (e.code() != KeeperException.Code.BADVERSION && e.code() != KeeperException.Code.NONODE) {
                throw e;
            }
            // another member closed the round (or our node is already gone): nothing is left to do but ours
            if (memberPath != null && e.failedIndex() == 2) {
                close(r, null);
                return;
            }
            if (memberPath != null) {
                client.delete().quietly().forPath(memberPath);
            }
        }
    }

    /**
     * The round that is on: the barrier node's data and version while {@code ready} existed (every
     * close bumps the version, so it identifies that {@code ready}), as {@link #look} reads them.
     */
    public Round readRound() throws InterruptedException {
        return look(null).round();
    }

    /**
     * The round that is on, and {@code memberPath}'s stat (null if it is gone), in one request where
     * the servers take a multi of reads (the barrier node, {@code ready} and the member node, as
     * getData; Baton's barrier and member nodes hold no data). The reads may still be answered one
     * by one (an older server, or a reply too large): the round is taken only if {@code ready} was
     * made before the barrier node was read — its creation zxid at most the barrier node's
     * {@code pzxid}, the zxid of its latest child change — so that {@code ready} existed from before
     * that read until its own, and the barrier node's version is the round's. Else it reads again.
     *
     * @param memberPath a member node to read along, or null
     */
    public Look look(String memberPath) throws InterruptedException {
        List<String> paths = memberPath == null ? List.of(path, readyPath) : List.of(path, readyPath, memberPath);
        while (true) {
            Map<String, NodeData> found = client.getData().forPaths(paths, SMALL_NODE_BYTES);
            NodeData parent = found.get(path);
            NodeData ready = found.get(readyPath);
            Stat member = memberPath == null || !found.containsKey(memberPath) ? null : found.get(memberPath).stat();
            if (parent == null || ready == null) {
                return new Look(Round.NONE, member);
            }
            if (ready.stat().getCzxid() <= parent.stat().getPzxid()) {
                return new Look(new Round(parent.stat().getVersion(), parent.data(), ready.stat().getCzxid()), member);
            }
            // ready was made (again) between the two reads: the barrier node's version may be an older round's
        }
    }

    /** A look at the barrier: the round that is on, and a member node's stat (null if it is gone or not asked for). */
    public record Look(Round round, Stat member) {
    }

    /**
     * One round of the barrier: its {@code ready} node (by creation zxid) and the barrier node's
     * data and version while that {@code ready} existed.
     */
    public record Round(int parentVersion, byte[] parentData, long readyCzxid) {
        /** No {@code ready}: no round is on. */
        public static final Round NONE = new Round(-1, new byte[0], 0);

        public boolean hasReady() {
            return readyCzxid != 0;
        }
    }

    /**
     * Creates the barrier node as a persistent node (its ancestors as containers) the first time
     * a member joins through this object. Rounds are told apart by the barrier node's data version; a container
     * would be reaped when empty between rounds and come back at version 0, where a close delayed
     * from an earlier round could match it. A barrier node that already exists is left as it is
     * (a container if Curator created it).
     */
    public void ensureBarrierNode() throws InterruptedException {
        if (barrierNodeEnsured) {
            return;
        }
        try {
            client.create().creatingParentContainersIfNeeded().forPath(path);
        } catch (NodeExistsException alreadyThere) {
            // fine: whoever created it
        }
        barrierNodeEnsured = true;
    }

    /** The members present now (names, sorted): neither {@code ready} nor any other recipe's node. */
    public List<String> members() throws InterruptedException {
        return listing().members();
    }

    /** The barrier node's children in one read: the members present (names, sorted), and whether {@code ready} is there. */
    public Listing listing() throws InterruptedException {
        List<String> children;
        try {
            children = client.getChildren().forPath(path);
        } catch (NoNodeException e) {
            return new Listing(List.of(), false);
        }
        List<String> members = new ArrayList<>();
        boolean ready = false;
        for (String child : children) {
            if (isMember(child)) {
                members.add(child);
            } else if (child.equals(READY)) {
                ready = true;
            }
        }
        Collections.sort(members);
        return new Listing(members, ready);
    }

    /** One listing of the barrier node: the members present (names, sorted), and whether {@code ready} is among the children. */
    public record Listing(List<String> members, boolean ready) {
    }

    /** {@return whether {@code child} of the barrier's node is a member's node} */
    static boolean isMember(String child) {
        return MEMBER.matcher(child).matches();
    }

}
