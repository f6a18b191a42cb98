package dev.baton.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ConnectionState;
import dev.baton.framework.ErrorPolicy;
import dev.baton.recipes.discovery.ServiceDiscovery;
import dev.baton.recipes.election.LeaderLatch;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.spring.discovery.BatonServiceRegistration;
import dev.baton.spring.integration.BatonLockRegistry;
import dev.baton.spring.integration.IntegrationLeaderEvents;
import dev.baton.spring.leader.BatonLeaderInitiator;
import dev.baton.test.ChaosProxy;
import dev.baton.test.ConnectString;
import dev.baton.test.EnsembleTest;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.integration.support.locks.LockRegistry;

/**
 * What the starter defines for which properties and class path, on {@link ApplicationContextRunner}
 * against one shared server.
 */
@EnsembleTest
class BatonAutoConfigurationTest {
    private static final AutoConfigurations ALL = AutoConfigurations.of(BatonAutoConfiguration.class,
        BatonLockRegistryAutoConfiguration.class, BatonLeadershipAutoConfiguration.class, BatonDiscoveryAutoConfiguration.class);

    private ApplicationContextRunner runner;

    @BeforeEach
    void runner(@ConnectString String connect) {
        runner = new ApplicationContextRunner().withConfiguration(ALL).withPropertyValues("baton.connect-string=" + connect);
    }

    @Test
    void theClientComesUpFromThePropertiesAndIsClosedWithTheContext() {
        AtomicReference<BatonClient> seen = new AtomicReference<>();
        runner.withPropertyValues("baton.namespace=billing", "baton.session-timeout=12s", "baton.connection-timeout=3s",
                "baton.error-policy=session-only", "baton.startup-timeout=20s", "baton.retry.max-retries=2")
            .run(context -> {
                assertThat(context).hasNotFailed().hasSingleBean(BatonClient.class);
                BatonClient client = context.getBean(BatonClient.class);
                seen.set(client);
                assertThat(client.connectionState()).as("startup-timeout waited for the connection").isEqualTo(ConnectionState.CONNECTED);
                assertThat(client.namespace()).isEqualTo("billing");
                assertThat(client.errorPolicy()).isEqualTo(ErrorPolicy.SESSION_ONLY);
                client.create().creatingParentsIfNeeded().forPath("/from-spring", new byte[0]);
                assertThat(client.usingNamespace(null).checkExists().forPath("/billing/from-spring")).isNotNull();
            });
        assertThat(seen.get().isClosed()).as("closed with the context").isTrue();
    }

    @Test
    void digestCredentialsAreAddedToTheSession() {
        runner.withPropertyValues("baton.auth.scheme=digest", "baton.auth.credentials=app:secret", "baton.startup-timeout=20s")
            .run(context -> assertThat(context).hasNotFailed());
    }

    @Test
    void aMalformedConnectStringFailsStartUpNamingTheProperty() {
        runner.withPropertyValues("baton.connect-string=:2181").run(context -> assertThat(context).getFailure()
            .rootCause().hasMessageContaining("':2181'"));
        runner.withPropertyValues("baton.connect-string=:2181").run(context -> assertThat(context).getFailure()
            .hasStackTraceContaining("baton.connect-string must be host:port[,host:port...][/chroot]"));
    }

    @Test
    void everyUnusableConnectStringFailsStartUpNamingThePropertyAndTheValue() {
        for (String wrong : new String[] {"zk1:abc", "zk1:70000", "zk1:2181,", "zk1:2181/bad//chroot", "no-such-host.invalid:2181"}) {
            runner.withPropertyValues("baton.connect-string=" + wrong).run(context -> assertThat(context).getFailure()
                .as("start-up with baton.connect-string=%s", wrong)
                .hasStackTraceContaining("baton.connect-string").hasStackTraceContaining("'" + wrong + "'"));
        }
    }

    @Test
    void everyOutOfRangeSettingFailsStartUpNamingThePropertyAndTheValue() {
        // property, value as written, the value as the failure shows it
        String[][] cases = {
            {"baton.session-timeout", "0s", "PT0S"}, {"baton.session-timeout", "-5s", "PT-5S"},
            {"baton.connection-timeout", "0s", "PT0S"}, {"baton.startup-timeout", "-1s", "PT-1S"},
            {"baton.retry.base-sleep", "0ms", "PT0S"}, {"baton.retry.max-retries", "-1", "-1"},
            {"baton.retry.max-sleep", "0s", "PT0S"}, {"baton.embedded.nodes", "2", "2"}, {"baton.embedded.port", "70000", "70000"},
            {"baton.lock-registry.cache-capacity", "0", "0"}, {"baton.discovery.port", "0", "0"},
            {"baton.discovery.port", "65536", "65536"},
        };
        for (String[] setting : cases) {
            runner.withPropertyValues(setting[0] + "=" + setting[1]).run(context -> assertThat(context).getFailure()
                .as("start-up with %s=%s", setting[0], setting[1])
                .hasStackTraceContaining(setting[0] + " must be").hasStackTraceContaining("was " + setting[2]));
        }
    }

    @Test
    void noEnsembleAtAllFailsStartUpSayingWhatToSet() {
        new ApplicationContextRunner().withConfiguration(ALL).run(context -> assertThat(context).getFailure()
            .hasStackTraceContaining("set baton.connect-string").hasStackTraceContaining("baton.embedded.enabled=true"));
    }

    @Test
    void anUnreachableEnsembleFailsStartUpWhenTheStartupTimeoutPasses() {
        runner.withPropertyValues("baton.connect-string=127.0.0.1:1", "baton.startup-timeout=300ms").run(context ->
            assertThat(context).getFailure().hasStackTraceContaining("within baton.startup-timeout (PT0.3S)"));
    }

    @Test
    void aSchemeWithoutCredentialsIsRefused() {
        runner.withPropertyValues("baton.auth.scheme=digest").run(context ->
            assertThat(context).getFailure().hasStackTraceContaining("baton.auth.credentials is not set"));
    }

    @Test
    void aClientBeanOfTheServiceIsKept(@ConnectString String connect) {
        runner.withBean("myClient", BatonClient.class, () -> {
            BatonClient mine = BatonClient.builder().connectString(connect).namespace("mine").build();
            mine.start(); // the service's bean, started by the service as the starter starts its own
            return mine;
        }, bean -> bean.setDestroyMethodName("close"))
            .run(context -> assertThat(context.getBean(BatonClient.class).namespace()).isEqualTo("mine"));
    }

    @Test
    void aClientBeanOfTheServiceThatWasNeverStartedFailsStartUpSayingSo(@ConnectString String connect) {
        runner.withBean("myClient", BatonClient.class, () -> BatonClient.builder().connectString(connect).namespace("mine").build(),
                bean -> bean.setDestroyMethodName("close"))
            .run(context -> assertThat(context).getFailure().hasStackTraceContaining("the client is not started; call start() first"));
    }

    @Test
    void customizersAdjustTheBuilder() {
        runner.withBean(BatonClientCustomizer.class, () -> builder -> builder.namespace("customized"))
            .run(context -> assertThat(context.getBean(BatonClient.class).namespace()).isEqualTo("customized"));
    }

    @Test
    void theLockRegistryComesWithSpringIntegrationAndTheLockRecipes() {
        runner.run(context -> assertThat(context).hasSingleBean(BatonLockRegistry.class));
        runner.withPropertyValues("baton.lock-registry.enabled=false")
            .run(context -> assertThat(context).doesNotHaveBean(LockRegistry.class));
        runner.withClassLoader(new FilteredClassLoader(LockRegistry.class))
            .run(context -> assertThat(context).hasNotFailed().hasSingleBean(BatonClient.class).doesNotHaveBean(BatonLockRegistry.class));
        runner.withClassLoader(new FilteredClassLoader("dev.baton.recipes.lock"))
            .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(BatonLockRegistry.class));
    }

    @Test
    void theLockRegistryTakesItsRootFromTheProperties() {
        runner.withPropertyValues("baton.lock-registry.root=/locks/billing").run(context ->
            assertThat(context.getBean(BatonLockRegistry.class).obtain("orders").mutex().path()).isEqualTo("/locks/billing/orders"));
        runner.withPropertyValues("baton.lock-registry.root=/locks/").run(context ->
            assertThat(context.getBean(BatonLockRegistry.class).obtain("orders").mutex().path()).isEqualTo("/locks/orders"));
        runner.withPropertyValues("baton.lock-registry.root=/").run(context ->
            assertThat(context.getBean(BatonLockRegistry.class).obtain("orders").mutex().path()).isEqualTo("/orders"));
    }

    @Test
    void leadershipIsOnlyForThoseWhoAskForIt() {
        runner.run(context -> assertThat(context).doesNotHaveBean(BatonLeaderInitiator.class));
        runner.withPropertyValues("baton.leadership.enabled=true", "baton.leadership.role=billing-jobs", "spring.application.name=billing")
            .run(context -> {
                assertThat(context).hasSingleBean(BatonLeaderInitiator.class).hasSingleBean(IntegrationLeaderEvents.class);
                BatonLeaderInitiator initiator = context.getBean(BatonLeaderInitiator.class);
                assertThat(initiator.path()).isEqualTo("/baton/leadership/billing-jobs");
                assertThat(initiator.participantId()).startsWith("billing@");
            });
        runner.withPropertyValues("baton.leadership.enabled=true").withClassLoader(new FilteredClassLoader(LeaderLatch.class))
            .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(BatonLeaderInitiator.class));
        runner.withPropertyValues("baton.leadership.enabled=true").withClassLoader(new FilteredClassLoader("org.springframework.integration"))
            .run(context -> assertThat(context).hasNotFailed().hasSingleBean(BatonLeaderInitiator.class)
                .doesNotHaveBean(IntegrationLeaderEvents.class));
    }

    @Test
    void registrationIsOnlyForThoseWhoAskForItAndNeedsAName() {
        runner.run(context -> assertThat(context).hasSingleBean(ServiceDiscovery.class).doesNotHaveBean(BatonServiceRegistration.class));
        runner.withPropertyValues("baton.discovery.register=true")
            .run(context -> assertThat(context).getFailure().hasStackTraceContaining("set spring.application.name"));
        runner.withClassLoader(new FilteredClassLoader("dev.baton.recipes.discovery"))
            .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(ServiceDiscovery.class));
    }

    @Test
    void anInstanceStartedWhileTheEnsembleIsUnreachableIsRegisteredWhenItComes(@ConnectString String connect) {
        // startup-timeout 0 (the default) promises that start-up does not wait for ZooKeeper, and
        // the discovery keeps a registration made without a connection for the next one
        try (ChaosProxy proxy = ChaosProxy.start(connect)) {
            proxy.cut();
            runner.withPropertyValues("baton.connect-string=" + proxy.connectString(), "baton.connection-timeout=1s",
                    "spring.application.name=billing", "baton.discovery.register=true", "baton.discovery.port=8080",
                    "baton.discovery.instance-id=started-while-cut", "baton.discovery.base-path=/cut-services")
                .run(context -> {
                    assertThat(context).as("start-up with the ensemble unreachable").hasNotFailed();
                    assertThat(context.getBean(BatonServiceRegistration.class).isRunning()).isTrue();
                    proxy.heal();
                    ServiceDiscovery<?> discovery = context.getBean(ServiceDiscovery.class);
                    await("the instance written once the client connects").atMost(Duration.ofSeconds(30))
                        .until(() -> discovery.queryForInstance("billing", "started-while-cut") != null);
                });
        }
    }

    @Test
    void embeddedWithoutTheServerModuleSaysWhatIsMissing() {
        // what happens when the module is in test scope or an inactive profile, as docs/spring.md suggests
        new ApplicationContextRunner().withConfiguration(ALL).withPropertyValues("baton.embedded.enabled=true")
            .withClassLoader(new FilteredClassLoader(EmbeddedEnsemble.class))
            .run(context -> assertThat(context).getFailure()
                .hasStackTraceContaining("baton.embedded.enabled is true, but dev.baton:baton-server-embedded is not on the class path")
                .rootCause().hasMessageNotContaining("or baton.embedded.enabled=true"));
    }

    @Test
    void everyUnusablePathOrNameFailsStartUpNamingThePropertyAndTheValue() {
        // property, value: each is refused while binding, before a bean uses it (a relative lock
        // root used to start fine and fail the first lock of a request)
        String[][] cases = {
            {"baton.namespace", "/billing"}, {"baton.namespace", "billing//v2"},
            {"baton.lock-registry.root", "locks"}, {"baton.lock-registry.root", "/locks//billing"},
            {"baton.leadership.path", "leader"}, {"baton.leadership.path", "/"},
            {"baton.discovery.base-path", "services/x/"}, {"baton.discovery.base-path", ""},
            {"baton.leadership.role", ""},
        };
        for (String[] setting : cases) {
            runner.withPropertyValues(setting[0] + "=" + setting[1], "baton.leadership.enabled=true")
                .run(context -> assertThat(context).getFailure()
                    .as("start-up with %s=%s", setting[0], setting[1])
                    .hasStackTraceContaining("Failed to bind properties under")
                    .hasStackTraceContaining(setting[0] + " ").hasStackTraceContaining("'" + setting[1] + "'"));
        }
        // the example docs/spring.md gives
        runner.withPropertyValues("baton.lock-registry.root=locks").run(context -> assertThat(context).getFailure()
            .hasStackTraceContaining("baton.lock-registry.root 'locks': invalid path: Path must start with / character"));
    }

    @Test
    void startupWaitsNoLongerThanAskedForByDefault() {
        // the default startup-timeout is zero: an unreachable ensemble does not hold start-up
        runner.withPropertyValues("baton.connect-string=127.0.0.1:1", "baton.lock-registry.enabled=false")
            .withClassLoader(new FilteredClassLoader("dev.baton.recipes.discovery"))
            .run(context -> {
                assertThat(context).hasNotFailed();
                assertThat(context.getBean(BatonClient.class).blockUntilConnected(Duration.ZERO)).isFalse();
            });
    }
}
