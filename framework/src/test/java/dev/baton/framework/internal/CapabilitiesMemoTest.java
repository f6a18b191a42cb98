package dev.baton.framework.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ServerCapabilities;
import dev.baton.framework.ServerCapabilities.Feature;
import org.junit.jupiter.api.Test;

/**
 * What the client knows of its server's features: a refusal an operation met is not undone by
 * the session's probe answering later (the probe runs in the background from the connect, and
 * may have been sent before the refusal), while a new session's probe starts afresh. The order
 * of the two cannot be forced through a real server, so the client's core is driven directly;
 * the client is never started.
 */
class CapabilitiesMemoTest {

    @Test
    void aRefusalMetWhileTheProbeWasOutOutlivesTheProbesAnswer() {
        BatonClient client = BatonClient.builder().connectString("127.0.0.1:2181").build();
        try {
            ClientCore core = ((NamespacedClient) client).core;
            long session = client.sessionId(); // never connected: 0, as the probe of "this session" sees it
            core.refused(Feature.TTL_NODES);
            core.refused(Feature.MULTI_READ);
            // 3.9.5 has TTL nodes, maybe switched off: the version leaves them unknown, and says multi-read is there
            core.learned(session, ServerCapabilities.ofVersion("3.9.5"));
            assertThat(core.capabilities().lacks(Feature.TTL_NODES)).as("TTL nodes after the probe: %s", core.capabilities()).isTrue();
            assertThat(core.capabilities().lacks(Feature.MULTI_READ)).as("multi-read after the probe: %s", core.capabilities()).isTrue();
            assertThat(core.capabilities().version()).as("the rest of what the probe learned").contains("3.9.5");
            assertThat(core.capabilities().supports(Feature.PERSISTENT_RECURSIVE_WATCHES)).isTrue();
        } finally {
            client.close();
        }
    }
}
