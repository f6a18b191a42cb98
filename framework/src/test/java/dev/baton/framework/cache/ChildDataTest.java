package dev.baton.framework.cache;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.Test;

class ChildDataTest {

    @Test
    void curatorsAccessorNamesReturnWhatTheRecordsReturn() {
        Stat stat = new Stat();
        stat.setVersion(3);
        byte[] data = {1, 2};
        ChildData node = new ChildData("/services/orders", data, stat);
        assertThat(node.getPath()).isEqualTo(node.path()).isEqualTo("/services/orders");
        assertThat(node.getData()).isSameAs(node.data()).isSameAs(data);
        assertThat(node.getStat()).isSameAs(node.stat()).isSameAs(stat);
        assertThat(node.name()).isEqualTo("orders");
    }
}
