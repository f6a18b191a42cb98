package dev.baton.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * A {@code @ConnectString} the extension cannot fill fails the class with a message naming the
 * field or parameter, instead of leaving it null (or at its initial value) for the test to trip
 * over later. The misused classes below are run through the JUnit launcher, as a build would.
 */
class EnsembleExtensionMisuseTest {

    @Test
    void aFinalConnectStringFieldIsRefusedByName() {
        assertThat(onlyFailure(FinalField.class))
            .isInstanceOf(ExtensionConfigurationException.class)
            .hasMessage("@ConnectString needs a non-final String field, but FinalField.connect is final");
    }

    @Test
    void aConnectStringFieldOfAnotherTypeIsRefusedByName() {
        assertThat(onlyFailure(ObjectField.class))
            .isInstanceOf(ExtensionConfigurationException.class)
            .hasMessage("@ConnectString needs a non-final String field, but ObjectField.connect is a Object");
    }

    @Test
    void aConnectStringParameterOfAnotherTypeIsRefusedByName() {
        assertThat(onlyFailure(IntParameter.class))
            .isInstanceOf(ParameterResolutionException.class)
            .hasMessage("@ConnectString needs a String parameter, but parameter 0 of IntParameter.test is a int");
    }

    private static Throwable onlyFailure(Class<?> testClass) {
        SummaryGeneratingListener listener = new SummaryGeneratingListener();
        LauncherFactory.create().execute(LauncherDiscoveryRequestBuilder.request().selectors(selectClass(testClass)).build(),
            listener);
        List<TestExecutionSummary.Failure> failures = listener.getSummary().getFailures();
        assertThat(failures).as("failures of %s", testClass.getSimpleName()).hasSize(1);
        return failures.get(0).getException();
    }

    @EnsembleTest
    static class FinalField {
        @ConnectString final String connect = "preset";

        @Test
        void test() {
        }
    }

    @EnsembleTest
    static class ObjectField {
        @ConnectString Object connect;

        @Test
        void test() {
        }
    }

    @EnsembleTest
    static class IntParameter {
        @Test
        void test(@ConnectString int connect) {
        }
    }
}
