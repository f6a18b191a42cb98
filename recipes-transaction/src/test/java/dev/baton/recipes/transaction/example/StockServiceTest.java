package dev.baton.recipes.transaction.example;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.recipes.transaction.Outcome;
import dev.baton.recipes.transaction.TransactionCoordinator;
import dev.baton.recipes.transaction.TransactionParticipant;
import dev.baton.test.EnsembleTest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The example of docs/transactions.md does what the page says. */
@EnsembleTest
class StockServiceTest {
    @Test
    void anOrderCommitsAtEveryWarehouseOrAtNone(BatonClient client, @TempDir Path dir) throws Exception {
        StockService eu = new StockService(10, dir.resolve("eu"));
        StockService us = new StockService(5, dir.resolve("us"));
        try (TransactionParticipant euSite = eu.join(client, "/shop/orders", "stock-eu");
             TransactionParticipant usSite = us.join(client, "/shop/orders", "stock-us");
             TransactionCoordinator coordinator = TransactionCoordinator.builder(client, "/shop/orders").build()) {
            assertThat(StockService.order(coordinator, Set.of("stock-eu", "stock-us"), 4).outcome()).isEqualTo(Outcome.COMMIT);
            await().atMost(Duration.ofSeconds(20)).until(() -> eu.available() == 6 && us.available() == 1);

            assertThat(StockService.order(coordinator, Set.of("stock-eu", "stock-us"), 4).outcome())
                .as("the US warehouse has 1 item left: it votes abort, so the EU one keeps its 6").isEqualTo(Outcome.ABORT);
            await().atMost(Duration.ofSeconds(20)).until(() -> eu.available() == 6 && us.available() == 1);
        }
        assertThat(new StockService(10, dir.resolve("eu")).available()).as("the records outlive the process").isEqualTo(6);
    }
}
