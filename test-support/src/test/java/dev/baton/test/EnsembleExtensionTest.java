package dev.baton.test;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.server.EmbeddedEnsemble;
import dev.baton.server.ServerRole;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

@EnsembleTest(nodes = 3)
class EnsembleExtensionTest {
    static EmbeddedEnsemble sharedByClass;
    EmbeddedEnsemble perInstance;
    @ConnectString String connectString;

    @Test
    void injectsOneRunningEnsembleIntoFieldsAndParameters(EmbeddedEnsemble parameter, @ConnectString String connect) {
        assertThat(sharedByClass).isNotNull().isSameAs(perInstance).isSameAs(parameter);
        assertThat(parameter.size()).isEqualTo(3);
        assertThat(parameter.role(parameter.leaderId())).isEqualTo(ServerRole.LEADER);
        assertThat(connect).isEqualTo(parameter.connectString()).isEqualTo(connectString);
    }

    @Nested
    class NestedTests {
        @Test
        void nestedClassesShareTheEnclosingEnsemble(EmbeddedEnsemble parameter) {
            assertThat(parameter).isSameAs(sharedByClass);
        }
    }
}
