package dev.baton.recipes.discovery;

import dev.baton.framework.BatonClient;
import dev.baton.test.BadPaths;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** A bad base path is refused when it is set, with the setting named; the root is a valid base path. */
class BadPathsTest {
    /** Never started: a path is checked before anything is sent. */
    private static final BatonClient CLIENT = BatonClient.builder().connectString("127.0.0.1:2181").build();

    @AfterAll
    static void close() {
        CLIENT.close();
    }

    @Test
    void aBadBasePathIsRefusedNamingTheSetting() {
        BadPaths.assertRefusedExceptRoot("ServiceDiscovery basePath",
            path -> ServiceDiscoveryBuilder.builder(Void.class).client(CLIENT).basePath(path));
        ServiceDiscoveryBuilder.builder(Void.class).client(CLIENT).basePath("/").build();
    }
}
