package dev.baton.recipes.group;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.framework.BatonClient;
import dev.baton.test.EnsembleTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.Test;

/**
 * A caller's continuation runs on the client's async pool. A continuation waiting for a node to be
 * created must leave the pool to the create's reply: with as many waiters as the pool has threads,
 * the wait itself must not keep the node from being created.
 */
@EnsembleTest
class AsyncContinuationTest {
    @Test
    void waitsForInitialCreateInContinuationsSeeTheirNodes(BatonClient client) throws Exception {
        int waiters = ((ForkJoinPool) client.asyncExecutor()).getParallelism() + 1;
        List<PersistentNode> nodes = new ArrayList<>();
        List<CompletableFuture<Boolean>> created = new ArrayList<>();
        try {
            for (int i = 0; i < waiters; i++) {
                PersistentNode node = new PersistentNode(client, CreateMode.EPHEMERAL, false, "/continuation/pn/n" + i,
                    ("n" + i).getBytes(UTF_8));
                nodes.add(node);
                // where a thenApply on one of the client's futures runs: start, then wait for the node
                created.add(CompletableFuture.supplyAsync(() -> {
                    try {
                        node.start();
                        return node.waitForInitialCreate(Duration.ofSeconds(10));
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException(e);
                    }
                }, client.asyncExecutor()));
            }
            for (int i = 0; i < waiters; i++) {
                assertThat(created.get(i).get(20, TimeUnit.SECONDS))
                    .as("waitForInitialCreate(10 s) of node %d in a continuation saw it created", i).isTrue();
                assertThat(client.checkExists().forPath("/continuation/pn/n" + i)).as("node %d exists", i).isNotNull();
            }
        } finally {
            nodes.forEach(PersistentNode::close);
        }
    }

    @Test
    void membersAwaitingJoinInContinuationsJoin(BatonClient client) throws Exception {
        int members = ((ForkJoinPool) client.asyncExecutor()).getParallelism() + 1;
        List<GroupMember> group = new ArrayList<>();
        List<CompletableFuture<Boolean>> joined = new ArrayList<>();
        try {
            for (int i = 0; i < members; i++) {
                GroupMember member = new GroupMember(client, "/continuation/group", "m" + i, new byte[0]);
                group.add(member);
                joined.add(CompletableFuture.supplyAsync(() -> {
                    try {
                        member.start();
                        return member.awaitJoined(Duration.ofSeconds(10));
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException(e);
                    }
                }, client.asyncExecutor()));
            }
            for (int i = 0; i < members; i++) {
                assertThat(joined.get(i).get(20, TimeUnit.SECONDS))
                    .as("awaitJoined(10 s) of member %d in a continuation saw it join", i).isTrue();
            }
            assertThat(client.getChildren().forPath("/continuation/group")).as("every member's node").hasSize(members);
        } finally {
            group.forEach(GroupMember::close);
        }
    }
}
