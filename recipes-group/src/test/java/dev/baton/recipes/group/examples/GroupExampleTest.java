package dev.baton.recipes.group.examples;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.framework.NoNodeException;
import dev.baton.recipes.group.GroupMember;
import dev.baton.recipes.group.IdAllocator;
import dev.baton.recipes.group.MembershipChange;
import dev.baton.recipes.group.NameEntry;
import dev.baton.recipes.group.NameLifetime;
import dev.baton.recipes.group.NamingService;
import dev.baton.recipes.group.PersistentNode;
import dev.baton.recipes.group.PersistentTtlNode;
import dev.baton.recipes.group.RegisteredName;
import dev.baton.test.EnsembleTest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.Test;

/** The examples of docs/group.md, compiled and run. */
@EnsembleTest
class GroupExampleTest {
    @Test
    void membership(BatonClient client, BatonClient other) throws Exception {
        List<String> log = new CopyOnWriteArrayList<>();
        // --- a search node joins its cluster, and follows who else is in ---
        try (GroupMember member = new GroupMember(client, "/clusters/search", "node-3", "10.0.0.3:9200".getBytes(UTF_8))) {
            member.addListener(change -> {
                switch (change.kind()) {
                    case JOINED -> log.add("joined: " + change.memberId());
                    case UPDATED -> log.add("updated: " + change.memberId());
                    case LEFT -> log.add("left: " + change.memberId());
                }
            });
            member.start();
            member.awaitJoined(Duration.ofSeconds(10));

            try (GroupMember peer = new GroupMember(other, "/clusters/search", "node-4", "10.0.0.4:9200".getBytes(UTF_8))) {
                peer.start();
                await().atMost(Duration.ofSeconds(20)).until(() -> member.getCurrentMembers().size() == 2);
                Map<String, byte[]> members = member.getCurrentMembers();        // node-3 and node-4, with their addresses
                assertThat(members.keySet()).containsExactly("node-3", "node-4");
                member.setThisData("10.0.0.3:9201".getBytes(UTF_8));             // moved: kept across re-creations
            }
        }
        assertThat(log).contains("joined: node-3", "joined: node-4", "left: node-4");
        assertThat(MembershipChange.Kind.values()).hasSize(3);
    }

    @Test
    void aNodeKeptInExistence(BatonClient client, BatonClient other) throws Exception {
        String seen;
        try (PersistentNode registration = new PersistentNode(client, CreateMode.EPHEMERAL_SEQUENTIAL, true, "/registrations/worker-",
                "10.0.0.7:8080".getBytes(UTF_8))) {
            registration.start();
            registration.waitForInitialCreate(Duration.ofSeconds(10));
            String path = registration.getActualPath();           // /registrations/_c_<uuid>-worker-0000000000, kept at that path
            registration.setData("10.0.0.7:8081".getBytes(UTF_8)); // written now, and what every re-creation writes
            assertThat(path).matches("/registrations/_c_[0-9a-f-]{36}-worker-0000000000");
            other.delete().forPath(path);
            await().atMost(Duration.ofSeconds(20)).until(() -> other.checkExists().forPath(path) != null);
            seen = new String(other.getData().forPath(path), UTF_8);
        }                                                          // close(): deletes the node
        assertThat(seen).isEqualTo("10.0.0.7:8081");
        assertThat(childrenOf(other, "/registrations")).as("close() deleted the node").isEmpty();
    }

    /** The children of a folder, none if it is gone (the parents a PersistentNode makes are containers, which the servers reap). */
    private static List<String> childrenOf(BatonClient client, String path) throws InterruptedException {
        try {
            return client.getChildren().forPath(path);
        } catch (NoNodeException reaped) {
            return List.of();
        }
    }

    @Test
    void membershipThatOutlivesItsSession(BatonClient client) throws Exception {
        // --- a batch worker stays listed for two minutes after it stops, so a restart does not look like a departure ---
        PersistentTtlNode worker = new PersistentTtlNode(client, "/workers/batch-7", Duration.ofMinutes(2), "running".getBytes(UTF_8));
        worker.start();
        boolean ready = worker.waitForInitialCreate(Duration.ofSeconds(10));   // TtlNodesDisabledException if the servers refuse TTL nodes
        assertThat(ready).isTrue();
        worker.close();                                                        // the node stays until its TTL runs out
        assertThat(client.checkExists().forPath("/workers/batch-7")).isNotNull();
    }

    @Test
    void naming(BatonClient client) throws Exception {
        NamingService names = new NamingService(client);
        // --- name two metrics endpoints and a host ---
        RegisteredName first = names.register("/business/metrics", "10.0.0.1:9100".getBytes(UTF_8));
        RegisteredName second = names.register("/business/metrics", "10.0.0.2:9100".getBytes(UTF_8));
        RegisteredName host = names.register("/infrastructure/host", "rack 4".getBytes(UTF_8), NameLifetime.EPHEMERAL);
        assertThat(first.name()).isEqualTo("/business/metrics0000000000");
        assertThat(second.name()).isEqualTo("/business/metrics0000000001");
        assertThat(host.name()).startsWith("/infrastructure/host");

        // --- look one up, list a namespace, release a name ---
        Optional<NameEntry> entry = names.lookup("/business/metrics0000000001");
        assertThat(entry.map(e -> new String(e.data(), UTF_8))).contains("10.0.0.2:9100");
        List<String> all = names.list("/business");          // [/business/metrics0000000000, /business/metrics0000000001]
        assertThat(all).containsExactly(first.name(), second.name());
        names.release(first.name());                          // never handed out again
        assertThat(names.list("/business")).containsExactly(second.name());
    }

    @Test
    void ids(BatonClient client, BatonClient other) throws Exception {
        // --- order ids: from memory, one write per 10,000, unique across every process on /ids/orders ---
        IdAllocator orders = IdAllocator.builder(client, "/ids/orders").blockSize(10_000).build();
        long id = orders.next();
        long[] batch = orders.next(100);
        assertThat(id).isEqualTo(1);
        assertThat(batch[0]).isEqualTo(2);

        // --- invoice numbers that must follow real time across the cluster: a write per call ---
        IdAllocator invoices = IdAllocator.builder(other, "/ids/invoices").strictlyMonotonic().build();
        long a = invoices.next();
        long b = IdAllocator.builder(client, "/ids/invoices").strictlyMonotonic().build().next();
        assertThat(b).isGreaterThan(a);   // b was asked for after a was handed out, in another process
    }
}
