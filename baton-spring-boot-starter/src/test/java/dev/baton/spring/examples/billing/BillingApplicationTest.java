package dev.baton.spring.examples.billing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.spring.leader.BatonLeaderInitiator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The complete application of docs/spring.md, compiled and started as a service starts it (its
 * {@code main}'s {@code SpringApplication}, component scan, every auto-configuration of the class
 * path), on the embedded server. The guide shows this package's {@code BillingApplication.java}
 * verbatim.
 */
class BillingApplicationTest {
    private static final Path SOURCE = Path.of("src", "test", "java", "dev", "baton", "spring", "examples", "billing",
        "BillingApplication.java");

    @Test
    void theGuidesApplicationSettlesUnderALockAndRunsItsLeaderJobs() throws Exception {
        try (ConfigurableApplicationContext app = SpringApplication.run(BillingApplication.class,
                "--server.port=0", "--spring.main.banner-mode=off", "--spring.application.name=billing",
                "--baton.embedded.enabled=true", "--baton.namespace=billing", "--baton.leadership.enabled=true",
                "--billing.report-cron=* * * * * *")) {
            Settlement settlement = app.getBean(Settlement.class);
            assertThat(settlement.settle("acme")).isTrue();
            assertThat(settlement.settle("acme")).isTrue();
            Ledger ledger = app.getBean(Ledger.class);
            // the report job runs meanwhile, every second, on this (the only) instance
            assertThat(ledger.entries).filteredOn(entry -> entry.startsWith("settled ")).hasSize(2)
                .allMatch(entry -> entry.startsWith("settled acme@"));

            BatonLeaderInitiator initiator = app.getBean(BatonLeaderInitiator.class);
            await().atMost(Duration.ofSeconds(20)).until(() -> app.getBean(InvoiceRun.class).isRunning());
            await().atMost(Duration.ofSeconds(20)).until(() -> ledger.entries.stream().anyMatch(e -> e.startsWith("nightly report@")));
            assertThat(ledger.entries).contains("nightly report@" + initiator.leadershipToken());
        }
    }

    @Test
    void theGuideShowsThisApplicationVerbatim() throws IOException {
        String source = Files.readString(SOURCE);
        String shown = source.substring(source.indexOf("import "));
        assertThat(Files.readString(Path.of("..", "docs", "spring.md")))
            .as("docs/spring.md shows %s from its imports on", SOURCE)
            .contains("```java\n" + shown + "```\n");
    }
}
