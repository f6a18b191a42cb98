package dev.baton.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.server.EmbeddedEnsemble;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.Environment;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.io.support.SpringFactoriesLoader;
import org.springframework.core.io.support.SpringFactoriesLoader.ArgumentResolver;
import org.springframework.core.io.support.SpringFactoriesLoader.FailureHandler;

/**
 * What Spring Boot's "APPLICATION FAILED TO START" report says for the starter's start-up
 * failures: the failure is analyzed by every analyzer registered in {@code META-INF/spring.factories},
 * in Boot's order, as Boot does, so the test also shows that the starter's analyzer is registered
 * and that no other analyzer takes these failures first.
 */
class BatonStartupFailureAnalyzerTest {
    private static final AutoConfigurations ALL = AutoConfigurations.of(BatonAutoConfiguration.class,
        BatonLockRegistryAutoConfiguration.class, BatonLeadershipAutoConfiguration.class, BatonDiscoveryAutoConfiguration.class);

    private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(ALL);

    @Test
    void aMalformedConnectStringIsReportedWithThePropertyToCorrect() {
        runner.withPropertyValues("baton.connect-string=:2181").run(context -> {
            FailureAnalysis analysis = analysisOf(context.getStartupFailure());
            assertThat(analysis.getDescription()).startsWith("baton.connect-string must be host:port[,host:port...][/chroot], "
                + "such as 'zk1:2181,zk2:2181,zk3:2181', but was ':2181': ");
            assertThat(analysis.getAction())
                .isEqualTo("Correct baton.connect-string: host:port pairs separated by commas, then an optional /chroot.");
            assertThat(((BatonStartupException) analysis.getCause()).property()).isEqualTo("baton.connect-string");
        });
    }

    @Test
    void noEnsembleAtAllIsReportedSayingWhichPropertyToSet() {
        runner.run(context -> {
            FailureAnalysis analysis = analysisOf(context.getStartupFailure());
            assertThat(analysis.getDescription()).startsWith("Baton needs an ensemble: set baton.connect-string");
            assertThat(analysis.getAction()).isEqualTo("Set baton.connect-string to your ZooKeeper ensemble, or for local "
                + "development set baton.embedded.enabled=true and add dev.baton:baton-server-embedded.");
        });
    }

    @Test
    void theEmbeddedServerModuleMissingIsReportedSayingWhatToAdd() {
        runner.withPropertyValues("baton.embedded.enabled=true").withClassLoader(new FilteredClassLoader(EmbeddedEnsemble.class))
            .run(context -> {
                FailureAnalysis analysis = analysisOf(context.getStartupFailure());
                assertThat(analysis.getDescription()).startsWith("baton.embedded.enabled is true, but "
                    + "dev.baton:baton-server-embedded is not on the class path");
                assertThat(analysis.getAction()).startsWith("Add dev.baton:baton-server-embedded to this run's class path")
                    .endsWith("or remove baton.embedded.enabled and set baton.connect-string.");
            });
    }

    @Test
    void anEnsembleNotReachedWithinTheStartupTimeoutIsReportedWithBothPropertiesToCheck() {
        runner.withPropertyValues("baton.connect-string=127.0.0.1:1", "baton.startup-timeout=300ms").run(context -> {
            FailureAnalysis analysis = analysisOf(context.getStartupFailure());
            assertThat(analysis.getDescription())
                .isEqualTo("Baton could not connect to '127.0.0.1:1' within baton.startup-timeout (PT0.3S): are the servers up and reachable?");
            assertThat(analysis.getAction()).isEqualTo("Check that the servers of baton.connect-string are up and reachable from "
                + "this machine, or raise baton.startup-timeout, or set it to 0 to start without waiting (operations then wait "
                + "for the connection).");
        });
    }

    @Test
    void aRegistrationWithoutAServiceNameIsReportedSayingWhichNameToSet() {
        runner.withPropertyValues("baton.connect-string=127.0.0.1:1", "baton.discovery.register=true").run(context -> {
            FailureAnalysis analysis = analysisOf(context.getStartupFailure());
            assertThat(analysis.getDescription()).startsWith("baton.discovery.register=true needs a service name");
            assertThat(analysis.getAction())
                .isEqualTo("Set spring.application.name (or baton.discovery.service-name), or remove baton.discovery.register.");
        });
    }

    @Test
    void aBadBatonPropertyValueIsReportedByBootsBindAnalyzerNamingThePropertyAndTheValue() {
        // refused while binding: Boot's own analyzer reports it, and the setter's reason names the property
        runner.withPropertyValues("baton.connect-string=127.0.0.1:1", "baton.retry.max-retries=-1").run(context -> {
            FailureAnalysis analysis = analysisOf(context.getStartupFailure());
            assertThat(analysis.getDescription()).startsWith("Failed to bind properties under 'baton.retry'")
                .contains("Property: baton.retry.max-retries").contains("Value: \"-1\"")
                .contains("baton.retry.max-retries must be zero (no retries) or more, was -1");
            assertThat(analysis.getAction()).contains("Update your application's configuration");
        });
    }

    /** The analysis Boot would print: the first one an analyzer registered in spring.factories makes, in Boot's order. */
    private static FailureAnalysis analysisOf(Throwable failure) {
        assertThat(failure).as("start-up failed").isNotNull();
        ArgumentResolver arguments = ArgumentResolver.of(BeanFactory.class, new DefaultListableBeanFactory())
            .and(Environment.class, new StandardEnvironment());
        // as Boot does, skip the analyzers that cannot be made here (those of absent libraries)
        FailureHandler skip = FailureHandler.handleMessage((message, unmade) -> { });
        List<FailureAnalyzer> analyzers = SpringFactoriesLoader.forDefaultResourceLocation(BatonStartupFailureAnalyzerTest.class.getClassLoader())
            .load(FailureAnalyzer.class, arguments, skip);
        FailureAnalysis analysis = analyzers.stream().map(analyzer -> analyzer.analyze(failure)).filter(Objects::nonNull)
            .findFirst().orElse(null);
        assertThat(analysis).as("an analysis of %s", failure).isNotNull();
        assertThat(analyzers).hasAtLeastOneElementOfType(BatonStartupFailureAnalyzer.class);
        return analysis;
    }
}
