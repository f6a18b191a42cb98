package dev.baton.framework.contention;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ConnectionState;
import dev.baton.framework.ServerCapabilities;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.ChaosProxy;
import dev.baton.test.EnsembleTest;
import dev.baton.test.TestClients;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.Test;

/**
 * A waiter's listing of the line is in flight when its client gives up on the session (suspended longer than
 * the session timeout) while the servers keep the old session — and its node — alive. The retry
 * loop finishes the listing on the new session. The attempt must notice that its ticket belongs
 * to a session the client left, give that node back and take a new ticket: holding on to it would
 * wait behind (or, once it is first, "hold" with) a node the client no longer owns.
 */
@EnsembleTest
class ContentionSessionChangeTest {
    EmbeddedEnsemble ensemble;

    @Test
    void ticketOfASessionTheClientLeftIsReplacedByOneOfTheNewSession(BatonClient holder, BatonClient operator)
        throws Exception {
        String dir = "/engine-session-change";
        Contention line = Contention.of(holder, dir, "lock-", ContentionRule.mutex());
        Ticket held = line.acquireBlocking(new byte[0], Duration.ofSeconds(10));
        try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1));
             BatonClient waiter = TestClients.started(proxy.connectString(), Duration.ofSeconds(2))) {
            long oldSession = waiter.sessionId();
            // the client asks its server what it supports when a session connects (a request of
            // its own): wait for that, so the next contact is the attempt's create (CI at a4e7086
            // cut the link on the probe's reply instead, before the create's)
            await().atMost(Duration.ofSeconds(20)).until(() -> !waiter.serverCapabilities().equals(ServerCapabilities.unknown()));
            long contactBefore = waiter.lastServerContactNanos();
            proxy.delay(Duration.ofMillis(300));
            CompletableFuture<Ticket> attempt = Contention.of(waiter, dir, "lock-", ContentionRule.mutex())
                .acquire(new byte[0], Duration.ofSeconds(60));
            // the create's reply has arrived when the client notes the contact; the listing that
            // follows at once is then in the proxy for 600 ms: cut it off there
            await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(1))
                .until(() -> waiter.lastServerContactNanos() != contactBefore);
            proxy.cut();
            String oldNode = null;
            for (String child : operator.getChildren().forPath(dir)) {
                Stat stat = operator.checkExists().forPath(dir + "/" + child);
                if (stat != null && stat.getEphemeralOwner() == oldSession) {
                    oldNode = dir + "/" + child;
                }
            }
            assertThat(oldNode).as("the waiter's first node").isNotNull();
            // the servers keep the old session alive (as they do until it times out on their side)
            ZooKeeper keeper = new ZooKeeper(ensemble.connectString(), 2_000, event -> { }, oldSession,
                waiter.zookeeper().getSessionPasswd());
            try {
                await().atMost(Duration.ofSeconds(20)).until(() -> waiter.connectionState() == ConnectionState.LOST);
                proxy.delay(Duration.ZERO);
                proxy.heal();
                await().atMost(Duration.ofSeconds(20)).until(() -> waiter.connectionState().isConnected());

                // the waiter takes a ticket of its new session
                await().atMost(Duration.ofSeconds(20)).until(() -> ownedBy(operator, dir, waiter.sessionId()));
                assertThat(operator.checkExists().forPath(oldNode)).as("the old session's node was given back").isNull();
            } finally {
                keeper.close();
            }
            line.release(held).get(10, TimeUnit.SECONDS);
            Ticket ticket = attempt.get(20, TimeUnit.SECONDS);
            assertThat(ticket.sessionId()).isEqualTo(waiter.sessionId()).isNotEqualTo(oldSession);
        }
    }

    /** The same with the waiter already parked on its watch: the Expired event replaces the ticket, and the old node goes too. */
    @Test
    void waiterParkedWhenItsClientLeavesTheSessionGivesItsOldNodeBack(BatonClient holder, BatonClient operator)
        throws Exception {
        String dir = "/engine-session-change-parked";
        Contention line = Contention.of(holder, dir, "lock-", ContentionRule.mutex());
        Ticket held = line.acquireBlocking(new byte[0], Duration.ofSeconds(10));
        try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1));
             BatonClient waiter = TestClients.started(proxy.connectString(), Duration.ofSeconds(2))) {
            long oldSession = waiter.sessionId();
            CompletableFuture<Ticket> attempt = Contention.of(waiter, dir, "lock-", ContentionRule.mutex())
                .acquire(new byte[0], Duration.ofSeconds(60));
            await().atMost(Duration.ofSeconds(20)).until(() -> ownedBy(operator, dir, oldSession));
            // parked: its watch on the holder's node is set once the line was listed and nothing else moves
            await().atMost(Duration.ofSeconds(20)).until(() -> operator.getChildren().forPath(dir).size() == 2);
            proxy.cut();
            ZooKeeper keeper = new ZooKeeper(ensemble.connectString(), 2_000, event -> { }, oldSession,
                waiter.zookeeper().getSessionPasswd());
            try {
                await().atMost(Duration.ofSeconds(20)).until(() -> waiter.connectionState() == ConnectionState.LOST);
                proxy.heal();
                await().atMost(Duration.ofSeconds(20)).until(() -> waiter.connectionState().isConnected()
                    && ownedBy(operator, dir, waiter.sessionId()));
                await().atMost(Duration.ofSeconds(20)).until(() -> !ownedBy(operator, dir, oldSession));
            } finally {
                keeper.close();
            }
            line.release(held).get(10, TimeUnit.SECONDS);
            assertThat(attempt.get(20, TimeUnit.SECONDS).sessionId()).isEqualTo(waiter.sessionId());
        }
    }

    private static boolean ownedBy(BatonClient reader, String dir, long session) throws InterruptedException {
        for (String child : reader.getChildren().forPath(dir)) {
            Stat stat = reader.checkExists().forPath(dir + "/" + child);
            if (stat != null && stat.getEphemeralOwner() == session) {
                return true;
            }
        }
        return false;
    }
}
