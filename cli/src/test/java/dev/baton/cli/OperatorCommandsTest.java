package dev.baton.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.framework.BatonClient;
import dev.baton.framework.NoNodeException;
import dev.baton.recipes.election.LeaderLatch;
import dev.baton.recipes.lock.InterProcessMutex;
import dev.baton.recipes.lock.InterProcessSemaphoreV2;
import dev.baton.recipes.lock.Lease;
import dev.baton.recipes.lock.LockLease;
import dev.baton.recipes.queue.DistributedQueue;
import dev.baton.recipes.queue.QueueBuilder;
import dev.baton.recipes.queue.QueueSerializer;
import dev.baton.recipes.queue.SimpleDistributedQueue;
import dev.baton.recipes.rwlock.InterProcessReadWriteLock;
import dev.baton.recipes.rwlock.ReadLease;
import dev.baton.recipes.rwlock.WriteLease;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.EnsembleTest;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.Test;

/**
 * {@code baton locks}, {@code leaders}, {@code queues}, {@code sessions} and {@code doctor} as
 * child processes against one embedded server, which grants at most 20 s sessions (so that the
 * doctor has something to find when a client asks for more). Recipes are set up in-process; the
 * command must report them as the recipes themselves see them: holders, waiters in line order,
 * sessions and fencing tokens.
 */
@EnsembleTest(maxSessionTimeoutMillis = 20_000)
class OperatorCommandsTest extends AgainstEnsemble {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration ACQUIRE = Duration.ofSeconds(30);

    /** Runs baton to its end; returns its standard output, failing with stderr if the exit code is not {@code expected}. */
    private String run(int expected, String... args) throws Exception {
        BatonProcess baton = start(args);
        assertThat(baton.finish(WAIT)).as("exit code of baton %s; stderr: %s", String.join(" ", args), baton.stderr()).isEqualTo(expected);
        return baton.stdout();
    }

    private JsonNode json(int expected, String... args) throws Exception {
        return JSON.readTree(run(expected, args));
    }

    private static int children(BatonClient client, String path) throws InterruptedException {
        try {
            return client.getChildren().forPath(path).size();
        } catch (NoNodeException e) {
            return 0;
        }
    }

    private static List<String> sessions(JsonNode line) {
        List<String> sessions = new ArrayList<>();
        line.forEach(node -> sessions.add(node.get("session").asText()));
        return sessions;
    }

    private static String hex(BatonClient client) {
        return "0x" + Long.toHexString(client.sessionId());
    }

    @Test
    void locksShowsEachHolderAndTheWaitersInLineOrderWithSessionsAndFencingTokens(BatonClient a, BatonClient b, BatonClient c)
        throws Exception {
        // a mutex: a holds, b then c wait
        LockLease held = new InterProcessMutex(a, "/ops/locks/mutex", "alpha".getBytes(UTF_8)).acquireLease(ACQUIRE);
        CompletableFuture<LockLease> second = new InterProcessMutex(b, "/ops/locks/mutex").acquireAsync();
        await().atMost(WAIT).until(() -> children(a, "/ops/locks/mutex") == 2);
        CompletableFuture<LockLease> third = new InterProcessMutex(c, "/ops/locks/mutex").acquireAsync();
        await().atMost(WAIT).until(() -> children(a, "/ops/locks/mutex") == 3);
        // a read/write lock: a reads, b waits to write, c waits to read behind the writer
        InterProcessReadWriteLock.ReadLock reader = new InterProcessReadWriteLock(a, "/ops/locks/rw").readLock();
        assertThat(reader.acquire(ACQUIRE)).isTrue();
        CompletableFuture<WriteLease> writer = new InterProcessReadWriteLock(b, "/ops/locks/rw").writeLock().acquireAsync();
        await().atMost(WAIT).until(() -> children(a, "/ops/locks/rw") == 2);
        CompletableFuture<ReadLease> lateReader = new InterProcessReadWriteLock(c, "/ops/locks/rw").readLock().acquireAsync();
        await().atMost(WAIT).until(() -> children(a, "/ops/locks/rw") == 3);
        // a semaphore of one lease: a holds it, b waits
        Lease lease = new InterProcessSemaphoreV2(a, "/ops/locks/sem", 1).acquire(ACQUIRE);
        CompletableFuture<Lease> waitingLease = new InterProcessSemaphoreV2(b, "/ops/locks/sem", 1).acquireAsync(ACQUIRE);
        await().atMost(WAIT).until(() -> children(a, "/ops/locks/sem/leases") == 2);
        try {
            JsonNode report = json(ExitCodes.OK, "locks", "/ops/locks", "--json");
            Map<String, JsonNode> byPath = new java.util.TreeMap<>();
            report.get("locks").forEach(lock -> byPath.put(lock.get("path").asText(), lock));
            assertThat(byPath).containsOnlyKeys("/ops/locks/mutex", "/ops/locks/rw", "/ops/locks/sem");

            JsonNode mutex = byPath.get("/ops/locks/mutex");
            assertThat(mutex.get("kind").asText()).isEqualTo("mutex");
            assertThat(sessions(mutex.get("holders"))).containsExactly(hex(a));
            assertThat(mutex.get("holders").get(0).get("token").asLong()).as("the holder's fencing token").isEqualTo(held.fencingToken());
            assertThat(mutex.get("holders").get(0).get("data").asText()).isEqualTo("alpha");
            assertThat(sessions(mutex.get("waiters"))).as("waiters in line order").containsExactly(hex(b), hex(c));

            JsonNode rw = byPath.get("/ops/locks/rw");
            assertThat(rw.get("kind").asText()).isEqualTo("rwlock");
            assertThat(sessions(rw.get("holders"))).containsExactly(hex(a));
            assertThat(sessions(rw.get("waiters"))).as("the writer, then the reader behind it").containsExactly(hex(b), hex(c));

            JsonNode sem = byPath.get("/ops/locks/sem");
            assertThat(sem.get("kind").asText()).isEqualTo("semaphore");
            assertThat(sessions(sem.get("holders"))).containsExactly(hex(a));
            assertThat(sem.get("holders").get(0).get("token").asLong()).isEqualTo(lease.fencingToken());
            assertThat(sessions(sem.get("waiters"))).containsExactly(hex(b));
            assertThat(sem.get("waiters").get(0).get("state").asText()).as("its lease is made, maxLeases not reached")
                .isEqualTo("counting");

            String table = run(ExitCodes.OK, "locks", "/ops/locks/mutex");
            assertThat(table).contains("/ops/locks/mutex  mutex  1 holding, 2 waiting")
                .containsPattern("1 +holds +" + hex(a) + " .* " + held.fencingToken() + " .*lock-\\d{10} +alpha")
                .containsPattern("3 +waits +" + hex(c) + " ");
        } finally {
            held.release();
            second.join().release();
            third.join().release();
            reader.release();
            writer.join().release();
            lateReader.join().release();
            lease.close();
            waitingLease.join().close();
        }
    }

    @Test
    void leadersShowsTheLeaderItsTermAndTheCandidatesInOrder(BatonClient a, BatonClient b) throws Exception {
        try (LeaderLatch alpha = LeaderLatch.builder(a, "/ops/elections/billing", "alpha").build();
             LeaderLatch beta = LeaderLatch.builder(b, "/ops/elections/billing", "beta").build()) {
            alpha.start();
            await().atMost(WAIT).until(alpha::hasLeadership);
            beta.start();
            await().atMost(WAIT).until(() -> children(a, "/ops/elections/billing") == 2);

            JsonNode report = json(ExitCodes.OK, "leaders", "/ops/elections", "--json");
            assertThat(report.get("elections")).hasSize(1);
            JsonNode election = report.get("elections").get(0);
            assertThat(election.get("path").asText()).isEqualTo("/ops/elections/billing");
            assertThat(election.get("kind").asText()).isEqualTo("latch");
            assertThat(election.get("leader").get("data").asText()).isEqualTo("alpha");
            assertThat(election.get("leader").get("session").asText()).isEqualTo(hex(a));
            assertThat(election.get("term").asLong()).as("the term is the leader's fencing token").isEqualTo(alpha.leadershipToken());
            assertThat(election.get("candidates")).hasSize(1);
            assertThat(election.get("candidates").get(0).get("data").asText()).isEqualTo("beta");

            assertThat(run(ExitCodes.OK, "leaders", "/ops/elections"))
                .contains("/ops/elections/billing  latch  leader 'alpha' term " + alpha.leadershipToken() + ", 1 waiting");
        }
    }

    /** Items as text. */
    private static final QueueSerializer<String> TEXT = new QueueSerializer<>() {
        @Override
        public byte[] serialize(String item) {
            return item.getBytes(UTF_8);
        }

        @Override
        public String deserialize(byte[] bytes) {
            return new String(bytes, UTF_8);
        }
    };

    @Test
    void queuesShowsDepthOldestItemAndDeadLetters(BatonClient client) throws Exception {
        long before = System.currentTimeMillis();
        SimpleDistributedQueue jobs = new SimpleDistributedQueue(client, "/ops/queues/jobs");
        for (String item : List.of("a", "b", "c")) {
            jobs.offer(item.getBytes(UTF_8));
        }
        try (DistributedQueue<String> failing = QueueBuilder.builder(client, item -> {
                throw new IllegalStateException("cannot handle " + item);
            }, TEXT, "/ops/queues/failing").maxDeliveryAttempts(1).buildQueue()) {
            failing.start();
            failing.put("poison");
            await().atMost(WAIT).until(() -> failing.deadLetters().size() == 1);
        }
        JsonNode report = json(ExitCodes.OK, "queues", "/ops/queues", "--json");
        Map<String, JsonNode> byPath = new java.util.TreeMap<>();
        report.get("queues").forEach(q -> byPath.put(q.get("path").asText(), q));
        assertThat(byPath).containsOnlyKeys("/ops/queues/failing", "/ops/queues/jobs");
        JsonNode queue = byPath.get("/ops/queues/jobs");
        assertThat(queue.get("depth").asLong()).isEqualTo(3);
        assertThat(queue.get("oldestItemAgeMillis").asLong()).isNotNegative()
            .as("put after %d, one machine's clock", before).isLessThanOrEqualTo(System.currentTimeMillis() - before);
        assertThat(queue.get("oldestItem").asText()).as("the first item put").endsWith("0000000000");
        assertThat(queue.get("deadLetters").asInt()).isZero();
        JsonNode failed = byPath.get("/ops/queues/failing");
        assertThat(failed.get("depth").asLong()).isZero();
        assertThat(failed.get("oldestItemAgeMillis").isNull()).as("an empty queue has no oldest item").isTrue();
        assertThat(failed.get("deadLetters").asInt()).isEqualTo(1);

        assertThat(run(ExitCodes.OK, "queues", "/ops/queues")).containsPattern("/ops/queues/jobs +3 +\\S+ +0 ")
            .containsPattern("/ops/queues/failing +0 +- +1 ");
    }

    @Test
    void sessionsShowsEachSessionsEphemeralsAndSaysWhichWordIsNotAllowed(BatonClient client) throws Exception {
        String node = client.create().withMode(CreateMode.EPHEMERAL).creatingParentContainersIfNeeded().forPath("/ops/sessions/mine");

        JsonNode report = json(ExitCodes.OK, "sessions", "--json");
        JsonNode mine = null;
        for (JsonNode session : report.get("sessions")) {
            if (session.get("session").asText().equals(hex(client))) {
                mine = session;
            }
        }
        assertThat(mine).as("the client's session, in %s", report).isNotNull();
        assertThat(mine.get("server").asText()).isEqualTo(ensemble.connectString());
        assertThat(mine.get("timeoutMillis").asLong()).isEqualTo(client.negotiatedSessionTimeout().toMillis());
        assertThat(mine.get("ephemerals")).extracting(JsonNode::asText).containsExactly(node);
        assertThat(mine.get("watches").isNull()).as("the embedded servers do not allow wchc").isTrue();
        assertThat(report.get("notes").get(0).asText()).isEqualTo("wchc is not allowed on " + ensemble.connectString()
            + " (4lw.commands.whitelist): watches per session are not shown; to see it, add wchc to 4lw.commands.whitelist in"
            + " the servers' zoo.cfg");

        String table = run(ExitCodes.OK, "sessions");
        assertThat(table).contains(hex(client) + ":\n  ephemeral " + node).contains("note: wchc is not allowed on ");
    }

    @Test
    void sessionsWhereNothingAnswersSaysTheServersCannotBeReachedNotThatTheWordsAreRefused() throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        String nowhere = "127.0.0.1:" + port;
        BatonProcess sessions = BatonProcess.start(dir, Map.of("BATON_CONNECT", nowhere), "sessions");
        assertThat(sessions.finish(WAIT)).as("stderr: %s", sessions.stderr()).isEqualTo(ExitCodes.UNAVAILABLE);
        assertThat(sessions.stderr()).as("nothing answers there: the whitelist is beside the point")
            .isEqualTo("baton: cannot reach the ensemble at " + nowhere + ": " + nowhere + " is unreachable (Connection refused); "
                + "is it running? (set -s or BATON_CONNECT)\n");
        assertThat(sessions.stdout()).containsPattern(nowhere + " +unreachable").as("nothing was read: no claim that there are no sessions")
            .doesNotContain("no sessions");
    }

    @Test
    void doctorPassesAHealthyEnsembleAndFailsWhenTheServersGrantLessThanTheClientAsks(BatonClient client) throws Exception {
        JsonNode healthy = json(ExitCodes.OK, "doctor", "--json");
        JsonNode server = healthy.get("servers").get(0);
        assertThat(server.get("mode").asText()).isEqualTo("standalone");
        assertThat(server.get("version").asText()).matches("3\\.\\d+\\.\\d+");
        assertThat(server.get("maxSessionTimeoutMillis").asLong()).isEqualTo(20_000);
        assertThat(server.get("notAllowedWords")).extracting(JsonNode::asText).contains("wchc");
        Map<String, String> results = new java.util.LinkedHashMap<>();
        healthy.get("checks").forEach(check -> results.put(check.get("name").asText(), check.get("result").asText()));
        assertThat(results).containsEntry("ttl nodes", "ok").containsEntry("session timeout", "ok").containsEntry("round trip", "ok")
            .doesNotContainValue("fail");

        String capped = run(ExitCodes.CONFIG, "doctor", "--session-timeout", "30s");
        assertThat(capped).containsPattern("session timeout +fail +asked 30s, granted 20s")
            .contains("1 failed");
        assertThat(children(client, "/baton/doctor")).as("the TTL probe deletes its node").isZero();
    }

    @Test
    void doctorFailsAConnectStringThatMixesEnsemblesOrNamesAServerThatIsDown() throws Exception {
        int down;
        try (ServerSocket free = new ServerSocket(0)) {
            down = free.getLocalPort();
        }
        try (EmbeddedEnsemble other = EmbeddedEnsemble.builder().nodes(1).build()) {
            other.start();
            String mixed = ensemble.connectString() + "," + other.connectString() + ",127.0.0.1:" + down;
            String report = run(ExitCodes.CONFIG, "doctor", "-s", mixed);
            assertThat(report).containsPattern("servers +fail +2 of 3 serving: 127.0.0.1:" + down + " unreachable")
                .containsPattern("ensemble +fail +the connect string names servers of different ensembles \\("
                    + ensemble.connectString() + " standalone, " + other.connectString() + " standalone\\)")
                .contains("2 failed");
        }
    }

    @Test
    void doctorReportsAnUnreachableEnsembleAndExits69() throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        BatonProcess doctor = BatonProcess.start(dir, Map.of("BATON_CONNECT", "127.0.0.1:" + port), "doctor");
        assertThat(doctor.finish(WAIT)).as("stderr: %s", doctor.stderr()).isEqualTo(ExitCodes.UNAVAILABLE);
        assertThat(doctor.stdout()).containsPattern("127.0.0.1:" + port + " +unreachable").containsPattern("connection +fail +nothing is listening")
            .as("no check says ok of an ensemble nobody serves").doesNotContainPattern("ensemble +ok")
            .containsPattern("ensemble +fail +no server of the connect string serves");
    }
}
