package com.example;

import dev.baton.framework.BatonClient;
import dev.baton.framework.retry.ExponentialBackoffRetry;
import java.time.Duration;

/** Where the application gets its ZooKeeper client: one per process, shared by every recipe. */
public final class Coordination {
    private Coordination() {
    }

    /**
     * A started client, connected to the ensemble at {@code connectString}
     * ("zk1:2181,zk2:2181,zk3:2181" in production). Close it when the application stops.
     */
    public static BatonClient connect(String connectString) throws InterruptedException {
        BatonClient client = BatonClient.builder()
            .connectString(connectString)
            .sessionTimeout(Duration.ofSeconds(15))
            .retryPolicy(new ExponentialBackoffRetry(Duration.ofMillis(100), 5))
            .build();
        client.start();
        if (!client.blockUntilConnected(Duration.ofSeconds(10))) {
            client.close();
            throw new IllegalStateException("no ZooKeeper server answered at " + connectString + " within 10 s");
        }
        return client;
    }
}
