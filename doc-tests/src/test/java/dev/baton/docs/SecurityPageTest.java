package dev.baton.docs;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * docs/security.md shows its example, SecureClients, exactly as the build compiles it and as
 * RecipesOverTlsTest runs every recipe family through it: a page that drifts from the code fails here.
 */
class SecurityPageTest {
    private static final String EXAMPLE = "doc-tests/src/test/java/dev/baton/docs/security/SecureClients.java";

    @Test
    void thePageShowsTheCompiledExampleExactly() {
        String file = Pages.read(Pages.root().resolve(EXAMPLE));
        String page = Pages.read(Pages.root().resolve("docs/security.md"));
        assertThat(Pages.blocks(page)).as("a java block on docs/security.md equal to %s", EXAMPLE)
            .anySatisfy(block -> assertThat(block.text()).isEqualTo(file));
    }
}
