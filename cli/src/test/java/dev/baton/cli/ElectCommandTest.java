package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.EnsembleTest;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@EnsembleTest
class ElectCommandTest {
    private static final Duration WAIT = Duration.ofSeconds(60);

    EmbeddedEnsemble ensemble;
    @TempDir
    Path dir;

    private static List<String> lines(Path file) throws Exception {
        return Files.exists(file) ? Files.readAllLines(file, StandardCharsets.UTF_8) : List.of();
    }

    @Test
    void tryLeadsWhenNobodyElseCampaignsAndGivesUpAtOnceWhenSomeoneLeads() throws Exception {
        Map<String, String> env = Map.of("BATON_CONNECT", ensemble.connectString());
        Path leading = dir.resolve("leading");
        try (BatonProcess alone = BatonProcess.start(dir, env, "elect", "try-me", "--try", "--", "sh", "-c",
            "echo \"$BATON_TERM\"; touch " + leading + "; sleep 30")) {
            await().atMost(WAIT).until(() -> Files.exists(leading) || !alone.isAlive());
            assertThat(alone.isAlive()).as("elected alone, running its command; stderr: %s", alone.stderr()).isTrue();
            BatonProcess second = BatonProcess.start(dir, env, "elect", "try-me", "--try", "--", "true");
            assertThat(second.finish(WAIT)).as("another leads: not elected").isEqualTo(ExitCodes.NOT_ACQUIRED);
            assertThat(second.stderr()).contains("not elected leader of try-me (another participant leads)");
        }
    }

    @Test
    void tryWithTheLeadersOwnIdStillSeesAnotherParticipantAhead() throws Exception {
        Map<String, String> env = Map.of("BATON_CONNECT", ensemble.connectString());
        Path leading = dir.resolve("leading");
        try (BatonProcess leader = BatonProcess.start(dir, env, "elect", "twins", "--id", "twin", "--", "sh", "-c",
            "touch " + leading + "; sleep 60")) {
            await().atMost(WAIT).until(() -> Files.exists(leading) || !leader.isAlive());
            assertThat(leader.isAlive()).as("elected, running its command; stderr: %s", leader.stderr()).isTrue();
            // the same id, and a connect timeout far longer than this test waits: --try decides on its first look
            // at the line, not when that timeout runs out
            BatonProcess second = BatonProcess.start(dir, env, "elect", "twins", "--id", "twin", "--try",
                "--connect-timeout", "5m", "--", "true");
            assertThat(second.finish(WAIT)).as("stderr: %s", second.stderr()).isEqualTo(ExitCodes.NOT_ACQUIRED);
            assertThat(second.stderr()).contains("not elected leader of twins (another participant leads)");
        }
    }

    @Test
    void theDefaultIdIsHostColonPid() throws Exception {
        BatonProcess elect = BatonProcess.start(dir, Map.of("BATON_CONNECT", ensemble.connectString()),
            "elect", "whoami", "--", "sh", "-c", "echo \"$BATON_LEADER_ID\"");
        assertThat(elect.finish(WAIT)).as("stderr: %s", elect.stderr()).isZero();
        assertThat(elect.stdout().trim()).isEqualTo(InetAddress.getLocalHost().getHostName() + ":" + elect.pid());
    }

    @Test
    void exactlyOneOfThreeContendersRunsTheCommandAndItMovesWhenTheLeaderStops() throws Exception {
        Path log = dir.resolve("leaders.log");
        Path observed = dir.resolve("observed.log");
        Map<String, String> env = Map.of("BATON_CONNECT", ensemble.connectString());
        String body = "echo \"$BATON_LEADER_ID $BATON_TERM\" >> " + log + "; while true; do sleep 0.1; done";
        List<BatonProcess> contenders = new ArrayList<>();
        try (BatonProcess observer = BatonProcess.start(dir, env, "elect", "--observe", "jobs")) {
            for (int i = 0; i < 3; i++) {
                contenders.add(BatonProcess.start(dir, env, "elect", "jobs", "--id", "p" + i, "--", "sh", "-c", body));
            }
            await().atMost(WAIT).until(() -> lines(log).size() == 1);
            // the others campaign but do not run their command while one leads
            await().during(Duration.ofMillis(500)).atMost(WAIT).until(() -> lines(log).size() == 1);
            String[] first = lines(log).get(0).split(" ");
            BatonProcess leader = contenders.get(Integer.parseInt(first[0].substring(1)));
            // the observer is a JVM of its own and may still be starting: it must have seen this term
            // before the term ends, or there is nothing to check it reported
            String firstLine = "{\"leader\":\"" + first[0] + "\",\"term\":" + first[1] + "}";
            await().atMost(WAIT).until(() -> observer.stdout().contains(firstLine));

            leader.signal("TERM");   // forwarded to its command, which dies; leadership is released
            assertThat(leader.exitCode(WAIT)).as("128 + SIGTERM from the command").isEqualTo(143);
            await().atMost(WAIT).until(() -> lines(log).size() == 2);
            String[] second = lines(log).get(1).split(" ");
            assertThat(second[0]).isNotEqualTo(first[0]);
            assertThat(Long.parseLong(second[1])).as("a new term has a larger token").isGreaterThan(Long.parseLong(first[1]));

            await().atMost(WAIT).until(() -> observer.stdout().contains("\"leader\":\"" + second[0] + "\""));
            assertThat(observer.stdout()).as("the terms in order").containsSubsequence(firstLine, "{\"leader\":\"" + second[0] + "\"");
        } finally {
            contenders.forEach(BatonProcess::close);
        }
    }
}
