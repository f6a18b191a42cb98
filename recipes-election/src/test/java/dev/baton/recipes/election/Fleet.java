package dev.baton.recipes.election;

import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.framework.contention.Contenders;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.ChaosProxy;
import dev.baton.test.TestClients;
import dev.baton.test.history.LeadershipChecker;
import dev.baton.test.history.LeadershipHistory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.zookeeper.data.Stat;
import org.awaitility.core.ConditionTimeoutException;

/**
 * The participants of one election in a test: each with its own client (directly or through a
 * {@link ChaosProxy}) and latch, all recording into one {@link LeadershipHistory}.
 */
final class Fleet implements AutoCloseable {
    static final Duration WAIT = Duration.ofSeconds(30);
    private static final AtomicInteger ELECTIONS = new AtomicInteger();

    final String path;
    final LeadershipHistory history = new LeadershipHistory();
    private final EmbeddedEnsemble ensemble;
    private final List<Member> members = new ArrayList<>();

    Fleet(EmbeddedEnsemble ensemble, String name) {
        this.ensemble = ensemble;
        this.path = "/elections/" + name + "-" + ELECTIONS.incrementAndGet();
    }

    /** A participant on a direct client. */
    Member add(String id, LeadershipPolicy policy, Duration sessionTimeout) {
        return add(id, policy, sessionTimeout, null);
    }

    /** A participant whose client reaches server {@code serverId} only through a proxy. */
    Member addBehindProxy(String id, LeadershipPolicy policy, Duration sessionTimeout, int serverId) {
        return add(id, policy, sessionTimeout, ChaosProxy.start(ensemble.connectString(serverId)));
    }

    /** A participant whose client knows only {@code connectString} (some of the servers). */
    Member addOn(String id, LeadershipPolicy policy, Duration sessionTimeout, String connectString) {
        Member member = new Member(id, policy, TestClients.started(connectString, sessionTimeout), null);
        members.add(member);
        return member;
    }

    private Member add(String id, LeadershipPolicy policy, Duration sessionTimeout, ChaosProxy proxy) {
        String connect = proxy == null ? ensemble.connectString() : proxy.connectString();
        Member member = new Member(id, policy, TestClients.started(connect, sessionTimeout), proxy);
        members.add(member);
        return member;
    }

    List<Member> members() {
        return members;
    }

    /** Waits until exactly one member leads, by its own latch and by the history, and returns it. */
    Member awaitOneLeader() {
        return awaitOneLeaderOtherThan(null);
    }

    /** Waits until exactly one member leads and it is not {@code former}, and returns it. */
    Member awaitOneLeaderOtherThan(Member former) {
        Member[] found = new Member[1];
        try {
            await().atMost(WAIT).pollInterval(Duration.ofMillis(5)).until(() -> {
                List<Member> leading = members.stream().filter(Member::leads).toList();
                var recorded = history.leaders();
                if (leading.size() == 1 && leading.get(0) != former && recorded.size() == 1 && recorded.containsKey(leading.get(0).id)) {
                    found[0] = leading.get(0);
                    return true;
                }
                return false;
            });
        } catch (ConditionTimeoutException e) {
            throw new AssertionError("not exactly one leader within " + WAIT + "; latches: "
                + members.stream().map(m -> m.id + "=" + (m.latch == null ? "none" : m.latch.state() + "/" + m.leads())).toList()
                + "\nhistory:\n" + LeadershipChecker.describe(history.events()), e);
        }
        return found[0];
    }

    /**
     * Waits until the term {@code token} has ended in the history: after removing a leader from
     * outside, the next round must not start before the old leader has heard of it (a hold
     * notices its node's deletion up to 50 ms late, and the callback follows).
     */
    void awaitTermEnded(long token) {
        await().atMost(WAIT).pollInterval(Duration.ofMillis(5)).until(() -> !history.leaders().containsValue(token));
    }

    /**
     * Starts {@code leader}'s latch and waits until it leads, then {@code follower}'s and waits
     * until both are in line: a known leader with one member behind it.
     */
    void startLeaderThenFollower(BatonClient reader, Member leader, Member follower) {
        leader.start();
        awaitOneLeader();
        follower.start();
        awaitAllInLine(reader);
    }

    /** Waits until every member with a started latch has a node in line. */
    void awaitAllInLine(BatonClient reader) {
        long started = members.stream().filter(m -> m.latch != null && m.latch.state() != LeaderLatch.State.CLOSED).count();
        await().atMost(WAIT).pollInterval(Duration.ofMillis(10))
            .until(() -> Contenders.inOrder(childrenOrEmpty(reader), Set.of("latch-")).size() == started);
    }

    /** The path of the node whose czxid is {@code token}. */
    String nodeOf(BatonClient reader, long token) throws InterruptedException {
        for (String child : reader.getChildren().forPath(path)) {
            Stat stat = reader.checkExists().forPath(path + "/" + child);
            if (stat != null && stat.getCzxid() == token) {
                return path + "/" + child;
            }
        }
        throw new AssertionError("no node with czxid " + token + " in " + path);
    }

    private List<String> childrenOrEmpty(BatonClient reader) throws InterruptedException {
        return reader.checkExists().forPath(path) == null ? List.of() : reader.getChildren().forPath(path);
    }

    @Override
    public void close() {
        for (Member member : members) {
            if (member.proxy != null) {
                member.proxy.heal();
            }
            if (member.latch != null) {
                member.latch.close();
            }
            member.client.close();
            if (member.proxy != null) {
                member.proxy.close();
            }
        }
    }

    /** One participant. */
    final class Member {
        final String id;
        final LeadershipPolicy policy;
        final BatonClient client;
        final ChaosProxy proxy;
        volatile LeaderLatch latch;

        Member(String id, LeadershipPolicy policy, BatonClient client, ChaosProxy proxy) {
            this.id = id;
            this.policy = policy;
            this.client = client;
            this.proxy = proxy;
        }

        /** Builds and starts a latch that records into the history. */
        LeaderLatch start() {
            LeaderLatch built = LeaderLatch.builder(client, path, id).policy(policy).build();
            built.addListener(LeaderLatchListener.of(token -> history.granted(id, token), () -> history.ended(id)));
            latch = built;
            built.start();
            return built;
        }

        /** Closes the latch (listeners told) and starts a new one at the back of the line. */
        LeaderLatch restart() {
            latch.close();
            return start();
        }

        boolean leads() {
            LeaderLatch current = latch;
            return current != null && current.hasLeadership();
        }

        @Override
        public String toString() {
            return id;
        }
    }
}
