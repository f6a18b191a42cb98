package dev.baton.recipes.group;

import dev.baton.framework.BatonClient;
import dev.baton.framework.BatonObserver;
import dev.baton.framework.ClientNotStartedException;
import dev.baton.framework.Deadline;
import dev.baton.framework.ZPaths;
import dev.baton.framework.cache.CacheEvent;
import dev.baton.framework.cache.ChildData;
import dev.baton.framework.cache.ChildrenCache;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.zookeeper.CreateMode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Membership of a group: this process joins with an id and data, and sees who else is in, live.
 * Curator's {@code GroupMember}, same layout, so Curator and Baton members of one group see each
 * other.
 *
 * <p>Layout and algorithm: each member is an ephemeral node {@code <membershipPath>/<id>} whose
 * data is the member's payload. This member's node is kept by a {@link PersistentNode} (re-created
 * after a session loss or a deletion, with the latest data); the others are read from a
 * {@link ChildrenCache} of {@code membershipPath}, whose changes {@link GroupListener}s hear as
 * JOINED, UPDATED and LEFT.
 *
 * <p>Guarantees and caveats: membership is tied to sessions. A member whose process dies or is cut
 * off stays listed until its session expires (its session timeout after the servers last heard
 * from it), then leaves everyone's view; a member cut off for less than its session timeout never
 * leaves. A member whose session ended comes back as soon as its client has a new session. The
 * view is a cache: it lags the servers by a round trip or two, and a member cut off from the
 * ensemble keeps its last view (in which it always lists itself). Ids are unique only by
 * agreement: two members with one id share one node, as in Curator.
 *
 * <pre>{@code
 * try (GroupMember member = new GroupMember(client, "/clusters/search", "node-3", address)) {
 *     member.addListener(change -> log.info("membership: {}", change));
 *     member.start();
 *     member.awaitJoined(Duration.ofSeconds(10));
 *     Map<String, byte[]> members = member.getCurrentMembers();   // id -> data, this member included
 * }
 * }</pre>
 */
public final class GroupMember implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(GroupMember.class);

    private final String membershipPath;
    private final String thisId;
    private final PersistentNode node;
    private final ChildrenCache cache;
    private final BatonClient client;
    private final List<GroupListener> listeners = new CopyOnWriteArrayList<>();
    private volatile boolean started;
    private volatile boolean closed;

    /**
     * A member {@code thisId} of the group at {@code membershipPath}, with {@code payload} as its data.
     *
     * @param client the client the member joins through
     * @param membershipPath the group's path: its members are its children
     * @param thisId this member's id, the name of its node
     * @param payload this member's data (copied)
     * @throws IllegalArgumentException if {@code thisId} is empty, contains {@code /}, or is not a valid node name
     */
    public GroupMember(BatonClient client, String membershipPath, String thisId, byte[] payload) {
        this.client = Objects.requireNonNull(client, "client");
        this.membershipPath = ZPaths.validate("GroupMember", Objects.requireNonNull(membershipPath, "membershipPath"));
        this.thisId = checkId(Objects.requireNonNull(thisId, "thisId"));
        String path = ZPaths.validate("GroupMember", ZPaths.join(this.membershipPath, thisId));
        this.node = new PersistentNode(client, CreateMode.EPHEMERAL, false, path, Objects.requireNonNull(payload, "payload"));
        this.cache = new ChildrenCache(client, this.membershipPath);
        cache.addListener(this::onCacheEvent);
    }

    private static String checkId(String id) {
        if (id.isEmpty() || id.contains("/") || id.equals(".") || id.equals("..")) {
            throw new IllegalArgumentException("a member id must be one non-empty path segment without '/', was '" + id + "'");
        }
        return id;
    }

    /**
     * Joins the group and starts watching it, in the background.
     *
     * @throws IllegalStateException if started before, or closed (a closed member cannot join again: make a new one)
     * @throws ClientNotStartedException if the client was never started (start it, then this)
     * @throws dev.baton.framework.ClientClosedException if the client is closed
     */
    public void start() {
        if (closed || started) {
            throw new IllegalStateException("GroupMember " + ZPaths.join(membershipPath, thisId)
                + (closed ? " is closed: a closed member cannot join again, make a new one" : " was already started"));
        }
        if (!client.isClosed()) {   // a closed client is refused below, as before
            // it would wait for a connection that a client never started never makes
            client.requireStarted("start GroupMember", ZPaths.join(membershipPath, thisId));
        }
        cache.start();
        node.start();
        started = true;
    }

    /**
     * Waits until this member's node exists and the view of the group is loaded.
     *
     * @param timeout how long to wait at most
     * @return true once joined and loaded, false if {@code timeout} passed first
     * @throws dev.baton.framework.DataTooLargeException if the payload is larger than the servers take in one
     *     request ({@code jute.maxbuffer}): the member cannot join until {@link #setThisData} gives a payload that fits
     * @throws dev.baton.framework.NoChildrenForEphemeralsException if the membership path (or its nearest existing
     *     ancestor) is an ephemeral node, which cannot have children; the message names it. The member joins once it is gone
     * @throws IllegalStateException if not started yet (call {@link #start()} first), or closed before it joined
     * @throws dev.baton.framework.ClientClosedException if the client is closed (before or while it waits) before the
     *     member joined: the wait ends then, not at {@code timeout}
     * @throws InterruptedException if the waiting thread is interrupted
     */
    public boolean awaitJoined(Duration timeout) throws InterruptedException {
        if (!started) {
            throw new IllegalStateException("GroupMember " + ZPaths.join(membershipPath, thisId)
                + (closed ? " was closed before it was started" : " is not started: call start() first"));
        }
        Deadline deadline = Deadline.afterNonNegative(timeout, client.ticker());
        return node.waitForInitialCreate(timeout) && cache.awaitInitialized(deadline.remaining());
    }

    /**
     * The members as this process sees them now — id to data, in id order — always including this
     * member (with its latest data) while it is started.
     *
     * @return an unmodifiable copy of the view: member id to data
     */
    public Map<String, byte[]> getCurrentMembers() {
        Map<String, byte[]> members = new TreeMap<>();
        for (ChildData child : cache.children().values()) {
            members.put(child.name(), child.data());
        }
        if (started && !closed) {
            members.putIfAbsent(thisId, node.getData());
        }
        return Collections.unmodifiableMap(members);
    }

    /**
     * Changes this member's data; returns once its node carries it (see {@link PersistentNode#setData}).
     *
     * @param data the new data (copied)
     * @throws dev.baton.framework.DataTooLargeException if the data is larger than the servers take in one request:
     *     it is refused, and the member keeps its data
     * @throws dev.baton.framework.NoChildrenForEphemeralsException if the membership path (or its nearest existing
     *     ancestor) is an ephemeral node, which the message names: the data is kept, and the member joins with it once it is gone
     * @throws InterruptedException if the calling thread is interrupted while the data is written (it is kept all the same)
     */
    public void setThisData(byte[] data) throws InterruptedException {
        node.setData(data);
    }

    /**
     * This member's id.
     *
     * @return the id given to the constructor
     */
    public String thisId() {
        return thisId;
    }

    /**
     * Where the group's members are.
     *
     * @return the group's path
     */
    public String membershipPath() {
        return membershipPath;
    }

    /**
     * A member's id from its node's path.
     *
     * @param path a member node's path, {@code /clusters/search/node-3}
     * @return its last segment, the member's id ({@code node-3})
     */
    public static String idFromPath(String path) {
        return ZPaths.name(path);
    }

    /**
     * Adds a listener told of every membership change this member's view sees from now on.
     *
     * @param listener the listener
     */
    public void addListener(GroupListener listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    /**
     * Removes a listener added with {@link #addListener}; no effect if it is not there.
     *
     * @param listener the listener
     */
    public void removeListener(GroupListener listener) {
        listeners.remove(listener);
    }

    /**
     * Leaves the group (deletes this member's node) and stops watching it. Without a connection it
     * returns at once: the node is deleted once the client is back, or goes with its session.
     */
    @Override
    public void close() {
        closed = true;
        node.close();   // the delete goes out first: the others see the leave without waiting for the cache's unwatch
        cache.close();
    }

    private void onCacheEvent(CacheEvent event) {
        BatonObserver observer = client.observer();
        if (observer != BatonObserver.NONE && event.type() != CacheEvent.Type.UPDATED) {
            observer.groupMembersSeen(membershipPath, cache.children().size());
        }
        MembershipChange change = switch (event.type()) {
            case ADDED -> new MembershipChange(MembershipChange.Kind.JOINED, event.node().name(), event.node().data());
            case REMOVED -> new MembershipChange(MembershipChange.Kind.LEFT, event.node().name(), event.node().data());
            case UPDATED -> event.previous() != null && Arrays.equals(event.previous().data(), event.node().data())
                ? null // a new stat, the same data: nothing a member would call a change
                : new MembershipChange(MembershipChange.Kind.UPDATED, event.node().name(), event.node().data());
            case INITIALIZED -> null;
        };
        if (change == null) {
            return;
        }
        for (GroupListener listener : listeners) {
            try {
                listener.membershipChanged(change);
            } catch (RuntimeException e) {
                LOG.warn("group {}: a listener failed on {}", membershipPath, change, e);
            }
        }
    }

    @Override
    public String toString() {
        return "GroupMember[" + membershipPath + "/" + thisId + "]";
    }
}
