package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.cli.RecipeScan.Kind;
import dev.baton.cli.ServerWords.Connection;
import dev.baton.cli.ServerWords.Status;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Reading the four-letter words' answers and recognising recipe folders, without a server: the
 * answers are ZooKeeper 3.9.5's, copied from a three-server ensemble (a leader's and a
 * follower's differ), and the one word layouts the process tests cannot reach (wchc is not
 * allowed on the embedded servers).
 */
class ServerWordsTest {
    private static final String FOLLOWER_DUMP = """
        SessionTracker dump:
        Global Sessions(2):
        0x100015b58d40000\t10000ms
        0x200015b58d50001\t10000ms
        ephemeral nodes dump:
        Sessions with Ephemerals (1):
        0x200015b58d50001:
        \t/x/l1/_c_d9960cec-981c-4cb8-9aba-a961214a1b34-lock-0000000001
        \t/baton/elections/e1/_c_ad0960a5-latch-0000000000
        Connections dump:
        Connections Sets (2)/(2):
        2 expire at Thu Nov 26 19:54:55 UTC 2026:
        \tip: /127.0.0.1:37868 sessionId: 0x100015b58d40000
        """;

    private static final String LEADER_DUMP = """
        SessionTracker dump:
        Session Sets (3)/(2):
        0 expire at Thu Nov 26 19:54:41 UTC 2026:
        1 expire at Thu Nov 26 19:54:48 UTC 2026:
        \t0x300015b58d80001
        1 expire at Thu Nov 26 19:54:50 UTC 2026:
        \t0x300015b58d80000
        ephemeral nodes dump:
        Sessions with Ephemerals (1):
        0x300015b58d80000:
        \t/x/l1/_c_79a4c46d-lock-0000000000
        Connections dump:
        Connections Sets (1)/(0):
        """;

    @Test
    void aDumpGivesEverySessionWithItsEphemeralsOnLeaderAndFollowerAlike() {
        assertThat(ServerWords.sessionsWithEphemerals(FOLLOWER_DUMP)).isEqualTo(Map.of(
            0x100015b58d40000L, List.of(),
            0x200015b58d50001L, List.of("/x/l1/_c_d9960cec-981c-4cb8-9aba-a961214a1b34-lock-0000000001",
                "/baton/elections/e1/_c_ad0960a5-latch-0000000000")));
        assertThat(ServerWords.sessionsWithEphemerals(LEADER_DUMP)).isEqualTo(Map.of(
            0x300015b58d80001L, List.of(),
            0x300015b58d80000L, List.of("/x/l1/_c_79a4c46d-lock-0000000000")));
    }

    @Test
    void consGivesClientConnectionsAndLeavesOutTheConnectionThatAsked() {
        String cons = """
             /127.0.0.1:37868[1](queued=0,recved=5,sent=5,sid=0x100015b58d40000,lop=EXIS,est=1795722875506,to=10000,lcxid=0x4,\
            lzxid=0x100000016,lresp=22800582,llat=2,minlat=0,avglat=33,maxlat=112)
             /127.0.0.1:48266[0](queued=0,recved=1,sent=0)

            """;
        assertThat(ServerWords.connections("127.0.0.1:2181", cons)).containsExactly(
            new Connection("127.0.0.1:2181", "127.0.0.1:37868", 0x100015b58d40000L, 10_000, 1795722875506L, "EXIS", 112));
    }

    @Test
    void wchcGivesTheWatchedPathsOfEachSession() {
        String wchc = """
            0x100015b58d40000
            \t/baton/elections/e1
            \t/x/l1/_c_79a4c46d-lock-0000000000
            0x300015b58d80001
            \t/app/config

            """;
        assertThat(ServerWords.watchesBySession(wchc)).isEqualTo(Map.of(
            0x100015b58d40000L, List.of("/baton/elections/e1", "/x/l1/_c_79a4c46d-lock-0000000000"),
            0x300015b58d80001L, List.of("/app/config")));
    }

    @Test
    void refusalsAreToldApartFromAnswers() {
        assertThat(ServerWords.classify("wchc is not executed because it is not in the whitelist.\n")).isEqualTo(Status.NOT_ALLOWED);
        assertThat(ServerWords.classify("This ZooKeeper instance is not currently serving requests\n")).isEqualTo(Status.NOT_SERVING);
        assertThat(ServerWords.classify("rw\n")).isEqualTo(Status.ANSWERED);
    }

    @Test
    void srvrAndConfGiveVersionAndSessionTimeoutBounds() {
        String srvr = "Zookeeper version: 3.9.5-293c895a8d966a3ecb92872be4a1daf87d725da2, built on 2026-02-11 20:18 UTC\nMode: leader\n";
        assertThat(ServerWords.version(srvr)).isEqualTo("3.9.5");
        Map<String, String> conf = ServerWords.properties("clientPort=2181\nminSessionTimeout=4000\nmaxSessionTimeout=40000\nmembership: \n");
        assertThat(conf).containsEntry("minSessionTimeout", "4000").containsEntry("maxSessionTimeout", "40000");
    }

    @Test
    void foldersAreRecognisedByTheLayoutsTheRecipesLeave() {
        assertThat(RecipeScan.kindOf(List.of("_c_5d1e-lock-0000000003"))).isEqualTo(Kind.MUTEX);
        assertThat(RecipeScan.kindOf(List.of("_c_5d1e-__READ__0000000001", "_c_77aa-__WRIT__0000000002"))).isEqualTo(Kind.READ_WRITE);
        assertThat(RecipeScan.kindOf(List.of("leases", "locks"))).isEqualTo(Kind.SEMAPHORE);
        assertThat(RecipeScan.kindOf(List.of("_c_5d1e-latch-0000000000"))).isEqualTo(Kind.LATCH);
        assertThat(RecipeScan.kindOf(List.of("x-72057594037927936-0000000000"))).isEqualTo(Kind.WRITE_LOCK);
        assertThat(RecipeScan.kindOf(List.of("shard-0000000000", "receipts", "dead-letters"))).isEqualTo(Kind.QUEUE);
        assertThat(RecipeScan.kindOf(List.of("qn-0000000007"))).isEqualTo(Kind.QUEUE);
        assertThat(RecipeScan.kindOf(List.of("queue-|18c5a1b2c3d|0000000004"))).as("a delay queue's item").isEqualTo(Kind.QUEUE);
        assertThat(RecipeScan.kindOf(List.of("config", "lock-files", "instances"))).as("plain names").isNull();
    }
}
