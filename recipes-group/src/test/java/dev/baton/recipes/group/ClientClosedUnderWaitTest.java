package dev.baton.recipes.group;

import static dev.baton.test.CloseUnderWait.endsWithClientClosed;
import static dev.baton.test.CloseUnderWait.endsWithClientClosedOnceParked;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.framework.BatonClient;
import dev.baton.framework.SetDataBuilder;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.CutOffClient;
import dev.baton.test.EnsembleTest;
import dev.baton.test.TestClients;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A group call that waits through a client ends at once with {@code ClientClosedException} when
 * that client is closed, instead of waiting out its timeout: a closed client never connects
 * again, so the node is never created and the group never loaded.
 */
@EnsembleTest
class ClientClosedUnderWaitTest {
    /** Far longer than {@code CloseUnderWait.PROMPTLY}: a wait that runs its course fails the test. */
    private static final Duration LONG = Duration.ofSeconds(60);

    EmbeddedEnsemble ensemble;

    @Test
    void aMemberAwaitingItsJoinEnds() throws Exception {
        try (CutOffClient cutOff = CutOffClient.start(ensemble)) {
            GroupMember member = new GroupMember(cutOff.client(), "/closed-under-wait/group", "m1", new byte[0]);
            cutOff.assertStartsPromptly("group member", member::start);
            // no connection: the join waits for one, which a closed client never makes
            var closed = endsWithClientClosedOnceParked(cutOff.client(), () -> member.awaitJoined(LONG));
            assertThat(closed).hasMessageContaining("/closed-under-wait/group");
        }
    }

    @Test
    void aNodeAwaitingItsFirstCreateEnds() throws Exception {
        try (CutOffClient cutOff = CutOffClient.start(ensemble)) {
            PersistentNode node = new PersistentNode(cutOff.client(), CreateMode.EPHEMERAL, false, "/closed-under-wait/node", new byte[0]);
            cutOff.assertStartsPromptly("persistent node", node::start);
            var closed = endsWithClientClosedOnceParked(cutOff.client(), () -> node.waitForInitialCreate(LONG));
            assertThat(closed).hasMessageContaining("/closed-under-wait/node");
        }
    }

    /**
     * The TTL node's container is created, but its first touch has not landed (in flight, or failed
     * for want of a connection and left to the next period, minutes away) when the client closes: a
     * closed client touches nothing more, so the wait ends then. The touch is held here by answering
     * it never; a real client's close fails it, which the node took as "try again next period".
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aTtlNodeAwaitingItsFirstTouchEnds() throws Exception {
        String path = "/closed-under-wait/ttl";
        BatonClient client = TestClients.started(ensemble.connectString(), Duration.ofSeconds(10));
        PersistentTtlNode node = new PersistentTtlNode(touchesNeverAnswered(client, path + "/" + PersistentTtlNode.DEFAULT_CHILD_NAME),
            path, Duration.ofMinutes(10), new byte[0]);
        node.start();
        var closed = endsWithClientClosed(client, () -> client.checkExists().forPath(path) != null,
            () -> node.waitForInitialCreate(LONG));
        assertThat(closed).hasMessageContaining(path);
    }

    /** {@code client}, whose setData of {@code touched} is sent nowhere and never answered. */
    private static BatonClient touchesNeverAnswered(BatonClient client, String touched) {
        return (BatonClient) Proxy.newProxyInstance(BatonClient.class.getClassLoader(), new Class<?>[] {BatonClient.class},
            (proxy, method, args) -> {
                Object result = invoke(client, method, args);
                if (!method.getName().equals("setData")) {
                    return result;
                }
                SetDataBuilder real = (SetDataBuilder) result;
                return Proxy.newProxyInstance(SetDataBuilder.class.getClassLoader(), new Class<?>[] {SetDataBuilder.class},
                    (builder, m, a) -> {
                        if (m.getName().equals("forPathAsync") && touched.equals(a[0])) {
                            return new CompletableFuture<>();
                        }
                        Object r = invoke(real, m, a);
                        return r == real ? builder : r;
                    });
            });
    }

    private static Object invoke(Object target, java.lang.reflect.Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
