package dev.baton.framework;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.test.EnsembleTest;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.Test;

@EnsembleTest
class SmokeTest {
    @Test
    void basics(BatonClient client) throws Exception {
        assertThat(client.create().forPath("/a", "x".getBytes())).isEqualTo("/a");
        assertThat(client.getData().forPath("/a")).isEqualTo("x".getBytes());
        String seq = client.create().withMode(CreateMode.EPHEMERAL_SEQUENTIAL).withProtection().creatingParentContainersIfNeeded().forPath("/l/lock-");
        assertThat(seq).startsWith("/l/_c_").contains("-lock-");
        assertThat(client.getChildren().forPath("/l")).hasSize(1);
        assertThat(client.create().forPathAsync("/b").get()).isEqualTo("/b");
        client.delete().forPath("/a");
        assertThat(client.checkExists().forPath("/a")).isNull();
    }
}
