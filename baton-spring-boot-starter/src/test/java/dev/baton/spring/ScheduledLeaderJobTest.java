package dev.baton.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.spring.leader.BatonLeaderInitiator;
import dev.baton.test.ConnectString;
import dev.baton.test.EnsembleTest;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

/**
 * The guide's scheduled job: a {@code @Scheduled} method fires on every instance of the service,
 * and {@code runIfLeader} lets its body run on the leader only, with the term's fencing token.
 * Two application contexts in this JVM play two instances.
 */
@EnsembleTest
class ScheduledLeaderJobTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    /** Where the job writes; like a real sink it may fail with a checked exception. */
    static final class Reports {
        final List<Long> published = new CopyOnWriteArrayList<>();

        void publish(long token) throws IOException {
            published.add(token);
        }
    }

    /** The guide's job, on a fast schedule. */
    static final class NightlyReport {
        final AtomicInteger fired = new AtomicInteger();
        private final BatonLeaderInitiator initiator;
        private final Reports reports;

        NightlyReport(BatonLeaderInitiator initiator, Reports reports) {
            this.initiator = initiator;
            this.reports = reports;
        }

        @Scheduled(fixedDelay = 50)
        void run() throws IOException {
            fired.incrementAndGet();
            initiator.runIfLeader(token -> reports.publish(token));
        }
    }

    @Configuration(proxyBeanMethods = false)
    @EnableScheduling
    static class Jobs {
        @Bean
        Reports reports() {
            return new Reports();
        }

        @Bean
        NightlyReport nightlyReport(BatonLeaderInitiator initiator, Reports reports) {
            return new NightlyReport(initiator, reports);
        }
    }

    @Test
    void aScheduledJobRunsOnOneInstanceOfTwoAndMovesWithLeadership(@ConnectString String connect) {
        ApplicationContextRunner instance = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(BatonAutoConfiguration.class, BatonLeadershipAutoConfiguration.class))
            .withUserConfiguration(Jobs.class)
            .withPropertyValues("baton.connect-string=" + connect, "spring.application.name=reports",
                "baton.leadership.enabled=true", "baton.leadership.role=nightly-report");
        instance.run(a -> instance.run(b -> {
            await().atMost(WAIT).until(() -> leads(a) || leads(b));
            AssertableApplicationContext leader = leads(a) ? a : b;
            AssertableApplicationContext follower = leader == a ? b : a;
            long term = leader.getBean(BatonLeaderInitiator.class).leadershipToken();

            // both schedules keep firing; only the leader's job body runs
            int followerFiredBefore = job(follower).fired.get();
            await().atMost(WAIT).until(() -> reports(leader).published.size() >= 3
                && job(follower).fired.get() >= followerFiredBefore + 3);
            assertThat(reports(follower).published).as("the follower's job ran").isEmpty();
            assertThat(reports(leader).published).as("every run of the leader carried its term's token").containsOnly(term);

            leader.close();
            await().atMost(WAIT).until(() -> !reports(follower).published.isEmpty());
            assertThat(reports(follower).published).as("the next leader's runs carry a larger token")
                .allSatisfy(token -> assertThat(token).isGreaterThan(term));
        }));
    }

    private static boolean leads(AssertableApplicationContext context) {
        return context.getBean(BatonLeaderInitiator.class).isLeader();
    }

    private static NightlyReport job(AssertableApplicationContext context) {
        return context.getBean(NightlyReport.class);
    }

    private static Reports reports(AssertableApplicationContext context) {
        return context.getBean(Reports.class);
    }
}
