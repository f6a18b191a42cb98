package dev.baton.recipes.group;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ConnectionState;
import dev.baton.framework.DataTooLargeException;
import dev.baton.framework.NoChildrenForEphemeralsException;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.ClientLink;
import dev.baton.test.EnsembleTest;
import dev.baton.test.SessionKiller;
import dev.baton.test.TestClients;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.Test;

/** Joining, leaving, updating, and a view that converges after partitions and session loss. */
@EnsembleTest
class GroupMemberTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final Duration SESSION = Duration.ofSeconds(3);

    EmbeddedEnsemble ensemble;

    private static byte[] bytes(String s) {
        return s.getBytes(UTF_8);
    }

    private static String text(Map<String, byte[]> members, String id) {
        byte[] data = members.get(id);
        return data == null ? null : new String(data, UTF_8);
    }

    @Test
    void membersSeeEachOtherAndListenersHearJoinsUpdatesAndLeaves(BatonClient a, BatonClient b) throws Exception {
        List<String> heard = new CopyOnWriteArrayList<>();
        try (GroupMember first = new GroupMember(a, "/groups/basic", "m1", bytes("one"))) {
            first.addListener(change -> heard.add(change.kind() + " " + change.memberId() + " " + new String(change.data(), UTF_8)));
            first.start();
            assertThat(first.awaitJoined(WAIT)).isTrue();
            GroupMember second = new GroupMember(b, "/groups/basic", "m2", bytes("two"));
            second.start();
            assertThat(second.awaitJoined(WAIT)).isTrue();

            await().atMost(WAIT).until(() -> first.getCurrentMembers().keySet().equals(java.util.Set.of("m1", "m2")));
            assertThat(text(first.getCurrentMembers(), "m2")).isEqualTo("two");
            assertThat(second.getCurrentMembers().keySet()).containsExactly("m1", "m2");

            second.setThisData(bytes("two-b"));
            await().atMost(WAIT).until(() -> "two-b".equals(text(first.getCurrentMembers(), "m2")));

            second.close();
            await().atMost(WAIT).until(() -> first.getCurrentMembers().keySet().equals(java.util.Set.of("m1")));
            await().atMost(WAIT).until(() -> heard.contains("LEFT m2 two-b"));
            assertThat(heard).containsSubsequence("JOINED m1 one", "JOINED m2 two", "UPDATED m2 two-b", "LEFT m2 two-b");
        }
    }

    @Test
    void aMemberListsItselfBeforeItsViewIsLoaded(BatonClient a) throws Exception {
        try (GroupMember member = new GroupMember(a, "/groups/self", "me", bytes("mine"))) {
            assertThat(member.getCurrentMembers()).as("not started: not a member").isEmpty();
            member.start();
            assertThat(text(member.getCurrentMembers(), "me")).isEqualTo("mine");
        }
    }

    @Test
    void aPayloadTooLargeForTheServersFailsAwaitJoinedWithATypedExceptionAndLeavesNoNode(BatonClient a, BatonClient b)
        throws Exception {
        try (GroupMember member = new GroupMember(a, "/groups/oversized", "big", new byte[2 * 1024 * 1024])) {
            member.start();
            assertThatThrownBy(() -> member.awaitJoined(WAIT))
                .as("refused at once, not a false after the timeout")
                .isInstanceOf(DataTooLargeException.class).hasMessageContaining("2097152 bytes");
            assertThat(b.checkExists().forPath("/groups/oversized/big")).isNull();

            member.setThisData(bytes("small"));    // data that fits: the member joins after all
            assertThat(member.awaitJoined(WAIT)).isTrue();
            assertThat(new String(b.getData().forPath("/groups/oversized/big"), UTF_8)).isEqualTo("small");
        }
    }

    @Test
    void dataTooLargeForTheServersIsRefusedAndTheMemberKeepsItsDataThroughItsNextSession(BatonClient b) throws Exception {
        try (BatonClient a = TestClients.started(ensemble.connectString(), SESSION);
             GroupMember member = new GroupMember(a, "/groups/toolarge", "m1", bytes("fits"))) {
            member.start();
            assertThat(member.awaitJoined(WAIT)).isTrue();
            assertThatThrownBy(() -> member.setThisData(new byte[2 * 1024 * 1024])).isInstanceOf(DataTooLargeException.class);
            assertThat(text(member.getCurrentMembers(), "m1")).as("the refused data is not kept").isEqualTo("fits");

            long session = a.sessionId();
            SessionKiller.expire(a, ensemble.connectString(), WAIT);
            await().atMost(WAIT).until(() -> {
                Stat stat = b.checkExists().forPath("/groups/toolarge/m1");
                return stat != null && stat.getEphemeralOwner() != session;
            });
            assertThat(new String(b.getData().forPath("/groups/toolarge/m1"), UTF_8)).isEqualTo("fits");
        }
    }

    @Test
    void startingTwiceOrAfterCloseIsRefusedNamingTheMember(BatonClient a, BatonClient b) throws Exception {
        GroupMember member = new GroupMember(a, "/groups/restart", "m1", bytes("x"));
        member.start();
        assertThat(member.awaitJoined(WAIT)).isTrue();
        assertThatThrownBy(member::start).isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("GroupMember /groups/restart/m1").hasMessageContaining("already started");
        member.close();
        assertThatThrownBy(member::start).isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("GroupMember /groups/restart/m1").hasMessageContaining("closed");
        assertThat(b.checkExists().forPath("/groups/restart/m1")).as("a refused start joins nothing").isNull();
    }

    @Test
    void closeWithoutAConnectionDoesNotSitOutTheConnectionTimeoutAndTheMemberLeavesOnceTheClientIsBack(BatonClient b)
        throws Exception {
        Duration connectionTimeout = Duration.ofSeconds(20);
        try (ClientLink link = ClientLink.to(ensemble);
             BatonClient a = TestClients.started(BatonClient.builder().connectString(link.connectString())
                 .sessionTimeout(Duration.ofSeconds(60)).connectionTimeout(connectionTimeout))) {
            AtomicReference<ConnectionState> state = new AtomicReference<>();
            a.addConnectionStateListener((c, s) -> state.set(s));
            GroupMember member = new GroupMember(a, "/groups/offline", "m1", bytes("x"));
            member.start();
            assertThat(member.awaitJoined(WAIT)).isTrue();
            link.cut();
            await().atMost(WAIT).until(() -> state.get() == ConnectionState.SUSPENDED);

            long began = System.nanoTime();
            member.close();
            assertThat(Duration.ofNanos(System.nanoTime() - began)).as("close() while the ensemble is out of reach")
                .isLessThan(connectionTimeout.dividedBy(2));

            link.heal();   // the session (60 s) outlives the cut: the node goes by the delete close() left behind
            await().atMost(WAIT).until(() -> b.checkExists().forPath("/groups/offline/m1") == null);
        }
    }

    @Test
    void aGroupWhosePathIsAnEphemeralNodeFailsAwaitJoinedAtOnceNamingIt(BatonClient a, BatonClient b) throws Exception {
        b.create().withMode(CreateMode.EPHEMERAL).creatingParentsIfNeeded().forPath("/groups/ephemeral", bytes(""));
        try (GroupMember member = new GroupMember(a, "/groups/ephemeral", "m1", bytes("one"))) {
            member.start();
            assertThatThrownBy(() -> member.awaitJoined(WAIT))
                .as("refused at once, not a false after the timeout")
                .isInstanceOf(NoChildrenForEphemeralsException.class)
                .hasMessageContaining("/groups/ephemeral is an ephemeral node");
        }
    }

    @Test
    void setThisDataInAGroupWhosePathIsAnEphemeralNodeFailsNamingIt(BatonClient a, BatonClient b) throws Exception {
        b.create().withMode(CreateMode.EPHEMERAL).creatingParentsIfNeeded().forPath("/groups/ephemeral-set", bytes(""));
        try (GroupMember member = new GroupMember(a, "/groups/ephemeral-set", "m1", bytes("one"))) {
            member.start();
            assertThatThrownBy(() -> member.awaitJoined(WAIT)).isInstanceOf(NoChildrenForEphemeralsException.class);

            assertThatThrownBy(() -> member.setThisData(bytes("two")))
                .isInstanceOf(NoChildrenForEphemeralsException.class)
                .hasMessageContaining("/groups/ephemeral-set is an ephemeral node");
        }
    }

    @Test
    void awaitJoinedBeforeStartFailsAtOnceSayingToCallStart(BatonClient a) {
        try (GroupMember member = new GroupMember(a, "/groups/unstarted", "m1", bytes("one"))) {
            assertThatThrownBy(() -> member.awaitJoined(WAIT))
                .as("fails at once, not a false after the timeout")
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("call start() first");
        }
    }

    @Test
    void badIdsAreRefusedNamingTheId(BatonClient a) {
        assertThatThrownBy(() -> new GroupMember(a, "/groups/bad", "a/b", bytes("x")))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'a/b'");
        assertThatThrownBy(() -> new GroupMember(a, "/groups/bad", "", bytes("x"))).isInstanceOf(IllegalArgumentException.class);
        assertThat(GroupMember.idFromPath("/groups/bad/m7")).isEqualTo("m7");
    }

    @Test
    void afterPartitionsEveryLiveMemberIsListedAndADeadSessionIsDroppedAfterItsTimeout() throws Exception {
        List<ClientLink> links = new ArrayList<>();
        List<BatonClient> clients = new ArrayList<>();
        List<GroupMember> members = new ArrayList<>();
        List<String> heardByA = new CopyOnWriteArrayList<>();
        try {
            for (String id : List.of("a", "b", "c")) {
                ClientLink link = ClientLink.to(ensemble);
                links.add(link);
                BatonClient client = TestClients.started(BatonClient.builder().connectString(link.connectString())
                    .sessionTimeout(SESSION).connectionTimeout(Duration.ofSeconds(2)));
                clients.add(client);
                GroupMember member = new GroupMember(client, "/groups/converge", id, bytes(id));
                if (id.equals("a")) {
                    member.addListener(change -> heardByA.add(change.kind() + " " + change.memberId()));
                }
                member.start();
                members.add(member);
            }
            awaitEveryoneSees(members, "a", "b", "c");

            // a cut shorter than the session timeout: nobody leaves anyone's view
            AtomicReference<ConnectionState> bState = new AtomicReference<>();
            clients.get(1).addConnectionStateListener((c, s) -> bState.set(s));
            links.get(1).cut();
            await().atMost(WAIT).until(() -> bState.get() == ConnectionState.SUSPENDED);
            links.get(1).heal();
            await().atMost(WAIT).until(() -> bState.get() == ConnectionState.RECONNECTED);

            // c is cut off for good: once its session has expired it is gone from the others' views...
            links.get(2).cut();
            await().atMost(SESSION.plusSeconds(10)).until(() -> !members.get(0).getCurrentMembers().containsKey("c")
                && !members.get(1).getCurrentMembers().containsKey("c"));
            assertThat(members.get(2).getCurrentMembers()).as("cut off, c still lists itself").containsKey("c");

            // ...and back, in a new session, once it can reach the ensemble again
            links.get(2).heal();
            awaitEveryoneSees(members, "a", "b", "c");
            assertThat(heardByA).as("b's short cut was not a leave").doesNotContain("LEFT b");
            assertThat(heardByA).containsSubsequence("JOINED c", "LEFT c", "JOINED c");
        } finally {
            members.forEach(GroupMember::close);
            clients.forEach(BatonClient::close);
            links.forEach(ClientLink::close);
        }
    }

    private static void awaitEveryoneSees(List<GroupMember> members, String... ids) {
        java.util.Set<String> expected = java.util.Set.of(ids);
        await().atMost(WAIT).untilAsserted(() -> {
            for (GroupMember m : members) {
                assertThat(m.getCurrentMembers().keySet()).as("the view of %s", m.thisId()).isEqualTo(expected);
            }
        });
    }
}
