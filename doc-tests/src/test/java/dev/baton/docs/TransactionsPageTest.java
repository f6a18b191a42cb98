package dev.baton.docs;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * docs/transactions.md shows its example, StockService, exactly as the build compiles and tests
 * it (recipes-transaction's test sources, run by StockServiceTest): a page that drifts from the
 * code fails here.
 */
class TransactionsPageTest {
    private static final String EXAMPLE =
        "recipes-transaction/src/test/java/dev/baton/recipes/transaction/example/StockService.java";

    @Test
    void thePageShowsTheCompiledExampleExactly() {
        String file = Pages.read(Pages.root().resolve(EXAMPLE));
        String page = Pages.read(Pages.root().resolve("docs/transactions.md"));
        assertThat(Pages.blocks(page)).as("a java block on docs/transactions.md equal to %s", EXAMPLE)
            .anySatisfy(block -> assertThat(block.text()).isEqualTo(file));
    }
}
