package dev.baton.spring.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.spring.BatonAutoConfiguration;
import dev.baton.spring.BatonLeadershipAutoConfiguration;
import dev.baton.spring.BatonLockRegistryAutoConfiguration;
import dev.baton.spring.integration.BatonLock;
import dev.baton.spring.integration.BatonLockRegistry;
import dev.baton.spring.leader.BatonLeaderInitiator;
import dev.baton.spring.leader.LeaderLifecycle;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The application docs/spring.md shows, compiled and run: one dependency, the embedded server,
 * a settlement under a registry lock with its fencing token, a bean that runs on the leader only,
 * and a job guarded by {@code runIfLeader}.
 */
class SpringExampleTest {

    /** What the lock protects: it refuses a write with a token smaller than the largest it saw. */
    static final class Ledger {
        final List<String> entries = new CopyOnWriteArrayList<>();
        private long largestToken = -1;

        synchronized void write(String entry, long token) {
            if (token < largestToken) {
                throw new IllegalStateException("stale token " + token + " < " + largestToken);
            }
            largestToken = token;
            entries.add(entry + "@" + token);
        }
    }

    /** The page's settlement: one account settled at a time across the fleet. */
    static final class Settlement {
        private final BatonLockRegistry locks;
        private final Ledger ledger;

        Settlement(BatonLockRegistry locks, Ledger ledger) {
            this.locks = locks;
            this.ledger = ledger;
        }

        boolean settle(String account) throws InterruptedException {
            BatonLock lock = locks.obtain("settlement-" + account);
            if (!lock.tryLock(10, TimeUnit.SECONDS)) {
                return false;
            }
            try {
                ledger.write(account, lock.fencingToken());
                return true;
            } finally {
                lock.unlock();
            }
        }
    }

    /** The page's leader-only bean. */
    static final class InvoiceRun implements LeaderLifecycle {
        private volatile boolean running;

        @Override
        public void start() {
            running = true;
        }

        @Override
        public void stop() {
            running = false;
        }

        @Override
        public boolean isRunning() {
            return running;
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class Application {
        @Bean
        Ledger ledger() {
            return new Ledger();
        }

        @Bean
        Settlement settlement(BatonLockRegistry locks, Ledger ledger) {
            return new Settlement(locks, ledger);
        }

        @Bean
        InvoiceRun invoiceRun() {
            return new InvoiceRun();
        }
    }

    @Test
    void theApplicationOfTheGuideRuns() {
        new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(BatonAutoConfiguration.class, BatonLockRegistryAutoConfiguration.class,
                BatonLeadershipAutoConfiguration.class))
            .withUserConfiguration(Application.class)
            .withPropertyValues("spring.application.name=billing", "baton.embedded.enabled=true", "baton.namespace=billing",
                "baton.leadership.enabled=true")
            .run(context -> {
                assertThat(context).hasNotFailed();
                Settlement settlement = context.getBean(Settlement.class);
                assertThat(settlement.settle("acme")).isTrue();
                assertThat(settlement.settle("acme")).isTrue();
                assertThat(context.getBean(Ledger.class).entries).hasSize(2);

                BatonLeaderInitiator initiator = context.getBean(BatonLeaderInitiator.class);
                await().atMost(Duration.ofSeconds(20)).until(() -> context.getBean(InvoiceRun.class).isRunning());
                long[] reported = new long[1];
                assertThat(initiator.runIfLeader(token -> reported[0] = token)).as("the nightly report ran").isTrue();
                assertThat(reported[0]).isEqualTo(initiator.leadershipToken());
            });
    }
}
