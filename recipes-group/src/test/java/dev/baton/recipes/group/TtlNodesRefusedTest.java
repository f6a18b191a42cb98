package dev.baton.recipes.group;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.framework.BatonClient;
import dev.baton.test.EnsembleTest;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Against servers that refuse TTL nodes, a PersistentTtlNode says which server setting turns them on.
 *
 * <p>ZooKeeper's server reads {@code zookeeper.extendedTypesEnabled} on every TTL create, JVM-wide,
 * so this class (with an ensemble of its own, in which no TTL node exists) turns it off around the
 * attempt and back on after.
 */
@EnsembleTest
class TtlNodesRefusedTest {
    private static final String SETTING = "zookeeper.extendedTypesEnabled";

    @Test
    void aServerWithoutTtlNodesGetsATypedErrorNamingTheSetting(BatonClient client) {
        String before = System.getProperty(SETTING);
        System.setProperty(SETTING, "false");
        try (PersistentTtlNode node = new PersistentTtlNode(client, "/refused/w1", Duration.ofSeconds(5), "w".getBytes(UTF_8))) {
            node.start();
            assertThatThrownBy(() -> node.waitForInitialCreate(Duration.ofSeconds(20)))
                .isInstanceOf(TtlNodesDisabledException.class)
                .hasMessage("create /refused/w1/touch as a TTL node: the servers refuse TTL nodes (they answered 'unimplemented'); "
                    + "start every ZooKeeper server with -Dzookeeper.extendedTypesEnabled=true");
        } finally {
            if (before == null) {
                System.clearProperty(SETTING);
            } else {
                System.setProperty(SETTING, before);
            }
        }
    }
}
