package dev.baton.framework.contention;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.framework.BatonClient;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.ChaosProxy;
import dev.baton.test.EnsembleTest;
import dev.baton.test.TestClients;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.AddWatchMode;
import org.apache.zookeeper.Watcher;
import org.junit.jupiter.api.Test;

/**
 * The engine's folder can vanish between taking a ticket and listing the line: an operator
 * deletes the recipe's folder, or the server reaps it as an empty container. The attempt must
 * take a new ticket (recreating the folder), not fail.
 */
@EnsembleTest
class ContentionFolderDeletedTest {
    EmbeddedEnsemble ensemble;

    @Test
    void attemptWhoseFolderIsDeletedBeforeItListsTakesANewTicket(BatonClient operator) throws Exception {
        String dir = "/engine-folder-gone";
        try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1));
             BatonClient slow = TestClients.started(proxy.connectString(), Duration.ofSeconds(10))) {
            // every reply to the contender arrives 300 ms late: the operator, on a direct
            // connection, sees the contender's node appear long before the contender lists the line
            proxy.delay(Duration.ofMillis(300));
            CompletableFuture<String> deleted = new CompletableFuture<>();
            Watcher onCreate = event -> {
                if (event.getType() == Watcher.Event.EventType.NodeCreated && event.getPath().contains("-lock-")
                    && !deleted.isDone()) {
                    operator.delete().deletingChildrenIfNeeded().forPathAsync(dir)
                        .whenComplete((v, e) -> deleted.complete(event.getPath()));
                }
            };
            operator.watches().add(dir, AddWatchMode.PERSISTENT_RECURSIVE, onCreate);

            CompletableFuture<Ticket> attempt = Contention.of(slow, dir, "lock-", ContentionRule.mutex())
                .acquire(new byte[0], Duration.ofSeconds(20));

            String firstNode = deleted.get(20, TimeUnit.SECONDS);
            proxy.delay(Duration.ZERO);
            Ticket ticket = attempt.get(20, TimeUnit.SECONDS);
            assertThat(ticket).as("the attempt holds after its folder was deleted under it").isNotNull();
            assertThat(ticket.path()).as("a new ticket, not the deleted one").isNotEqualTo(firstNode);
            assertThat(operator.checkExists().forPath(ticket.path())).as("the new ticket's node exists").isNotNull();
        }
    }
}
