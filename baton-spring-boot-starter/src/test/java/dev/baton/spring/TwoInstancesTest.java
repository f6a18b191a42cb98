package dev.baton.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.recipes.discovery.ServiceDiscovery;
import dev.baton.recipes.discovery.ServiceDiscoveryBuilder;
import dev.baton.recipes.discovery.ServiceInstance;
import dev.baton.spring.integration.BatonLeaderContext;
import dev.baton.spring.integration.BatonLock;
import dev.baton.spring.integration.BatonLockRegistry;
import dev.baton.spring.leader.BatonLeaderInitiator;
import dev.baton.spring.leader.LeaderLifecycle;
import dev.baton.test.ConnectString;
import dev.baton.test.EnsembleTest;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationListener;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.integration.leader.event.AbstractLeaderEvent;
import org.springframework.integration.leader.event.OnGrantedEvent;
import org.springframework.integration.support.SmartLifecycleRoleController;

/**
 * Two instances of one service, as two application contexts in this JVM on one shared server:
 * they contend for a lock of the registry and for leadership, and register in discovery.
 */
@EnsembleTest
class TwoInstancesTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    private ApplicationContextRunner runner;

    @BeforeEach
    void runner(@ConnectString String connect) {
        runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(BatonAutoConfiguration.class, BatonLockRegistryAutoConfiguration.class,
                BatonLeadershipAutoConfiguration.class, BatonDiscoveryAutoConfiguration.class))
            .withPropertyValues("baton.connect-string=" + connect, "spring.application.name=billing");
    }

    @Test
    void theInstancesContendForALockOfTheirRegistries() {
        runner.run(a -> runner.run(b -> {
            BatonLock mine = a.getBean(BatonLockRegistry.class).obtain("invoices");
            BatonLock theirs = b.getBean(BatonLockRegistry.class).obtain("invoices");
            mine.lock();
            long myToken = mine.fencingToken();
            CompletableFuture<Boolean> tried = CompletableFuture.supplyAsync(theirs::tryLock);
            assertThat(tried.get(20, TimeUnit.SECONDS)).as("the other instance's tryLock while this one holds it").isFalse();
            CompletableFuture<Long> waited = CompletableFuture.supplyAsync(() -> {
                theirs.lock();
                try {
                    return theirs.fencingToken();
                } finally {
                    theirs.unlock();
                }
            });
            await().atMost(WAIT).until(() -> mine.mutex().participantNodes().size() == 2);
            assertThat(waited).isNotDone();
            mine.unlock();
            assertThat(waited.get(20, TimeUnit.SECONDS)).as("the next holder's fencing token").isGreaterThan(myToken);
        }));
    }

    /** A bean that runs only on the leader, recording what it saw. */
    static final class Job implements LeaderLifecycle {
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

    /** Spring Integration's leader events this context heard. */
    static final class Events implements ApplicationListener<AbstractLeaderEvent> {
        final List<AbstractLeaderEvent> heard = new CopyOnWriteArrayList<>();

        @Override
        public void onApplicationEvent(AbstractLeaderEvent event) {
            heard.add(event);
        }
    }

    /** An endpoint-like lifecycle Spring Integration's role controller starts and stops with the role. */
    static final class RoleEndpoint implements SmartLifecycle {
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

        @Override
        public boolean isAutoStartup() {
            return false;
        }
    }

    /** Spring Integration's role controller over one endpoint of the role "billing-jobs". */
    @Configuration(proxyBeanMethods = false)
    static class RoleConfiguration {
        @Bean
        RoleEndpoint roleEndpoint() {
            return new RoleEndpoint();
        }

        @Bean
        SmartLifecycleRoleController roleController(RoleEndpoint endpoint) {
            return new SmartLifecycleRoleController(List.of("billing-jobs"), List.of(endpoint));
        }
    }

    @Test
    void oneInstanceLeadsAndClosingItHandsLeadershipToTheOther() {
        ApplicationContextRunner leaders = runner
            .withPropertyValues("baton.leadership.enabled=true", "baton.leadership.role=billing-jobs")
            .withBean(Job.class, Job::new)
            .withBean(Events.class, Events::new)
            .withUserConfiguration(RoleConfiguration.class);
        leaders.run(a -> leaders.run(b -> {
            await().atMost(WAIT).until(() -> granted(a) || granted(b));
            AssertableApplicationContext leader = granted(a) ? a : b;
            AssertableApplicationContext follower = leader == a ? b : a;
            assertThat(leads(leader)).isTrue();
            assertThat(leads(follower)).as("both lead").isFalse();
            assertThat(follower.getBean(Job.class).isRunning()).as("the follower's leader-only bean runs").isFalse();
            assertThat(leader.getBean(Job.class).isRunning()).isTrue();
            OnGrantedEvent granted = (OnGrantedEvent) leader.getBean(Events.class).heard.get(0);
            assertThat(granted.getRole()).isEqualTo("billing-jobs");
            long firstToken = ((BatonLeaderContext) granted.getContext()).token();
            assertThat(firstToken).isEqualTo(leader.getBean(BatonLeaderInitiator.class).leadershipToken());
            assertThat(roleEndpoint(leader).isRunning()).as("Spring Integration's role controller started the role's endpoint").isTrue();
            assertThat(roleEndpoint(follower).isRunning()).isFalse();

            Job leadersJob = leader.getBean(Job.class);
            leader.close();
            assertThat(leadersJob.isRunning()).as("stopped with its context").isFalse();

            await().atMost(WAIT).until(() -> granted(follower));
            BatonLeaderInitiator successor = follower.getBean(BatonLeaderInitiator.class);
            assertThat(successor.leadershipToken()).as("the next term's token").isGreaterThan(firstToken);
            assertThat(follower.getBean(Job.class).isRunning()).isTrue();
            assertThat(roleEndpoint(follower).isRunning()).isTrue();
            long[] ran = new long[1];
            assertThat(successor.runIfLeader(token -> ran[0] = token)).isTrue();
            assertThat(ran[0]).isEqualTo(successor.leadershipToken());
        }));
    }

    @Test
    void aYieldingLeaderHandsOverAndRejoins() {
        ApplicationContextRunner leaders = runner.withPropertyValues("baton.leadership.enabled=true", "baton.leadership.role=yield")
            .withBean(Job.class, Job::new);
        leaders.run(a -> leaders.run(b -> {
            await().atMost(WAIT).until(() -> leads(a) || leads(b));
            AssertableApplicationContext leader = leads(a) ? a : b;
            AssertableApplicationContext follower = leader == a ? b : a;
            long first = leader.getBean(BatonLeaderInitiator.class).leadershipToken();

            leader.getBean(BatonLeaderInitiator.class).context().yieldLeadership();

            await().atMost(WAIT).until(() -> leads(follower) && follower.getBean(Job.class).isRunning());
            assertThat(leader.getBean(Job.class).isRunning()).isFalse();
            assertThat(follower.getBean(BatonLeaderInitiator.class).leadershipToken()).isGreaterThan(first);
            assertThat(leader.getBean(BatonLeaderInitiator.class).runIfLeader(token -> { })).isFalse();
        }));
    }

    @Test
    void eachInstanceRegistersByApplicationNameAndPortAndLeavesOnClose(BatonClient observer) throws Exception {
        try (ServiceDiscovery<Void> discovery = ServiceDiscoveryBuilder.builder(Void.class).client(observer).basePath("/services").build()) {
            discovery.start();
            ApplicationContextRunner registered = runner.withPropertyValues("baton.discovery.register=true",
                "baton.discovery.metadata.zone=eu-1");
            registered.withPropertyValues("server.port=8123").run(a -> registered.withPropertyValues("baton.discovery.port=8124").run(b -> {
                await().atMost(WAIT).until(() -> discovery.queryForInstances("billing").size() == 2);
                assertThat(discovery.queryForInstances("billing")).extracting(ServiceInstance::port)
                    .containsExactlyInAnyOrder(8123, 8124);
                assertThat(discovery.queryForInstances("billing")).allSatisfy(i ->
                    assertThat(i.metadata()).containsEntry("zone", "eu-1"));
                a.close();
                assertThat(discovery.queryForInstances("billing")).as("deregistered when its context closed")
                    .extracting(ServiceInstance::port).containsExactly(8124);
            }));
            assertThat(discovery.queryForInstances("billing")).isEmpty();
        }
    }

    private static boolean leads(AssertableApplicationContext context) {
        return context.getBean(BatonLeaderInitiator.class).isLeader();
    }

    /** Whether the context heard a grant: its beans started before. */
    private static boolean granted(AssertableApplicationContext context) {
        return context.getBean(Events.class).heard.stream().anyMatch(OnGrantedEvent.class::isInstance);
    }

    private static RoleEndpoint roleEndpoint(AssertableApplicationContext context) {
        return context.getBean(RoleEndpoint.class);
    }
}
