package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.baton.framework.BatonClient;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.ChaosProxy;
import dev.baton.test.EnsembleTest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

/** The real baton command, as child processes, against an embedded ensemble. */
// judged against session expiry with baton's 500 ms margin: runs alone on the machine (cli/pom.xml)
@Tag("kill-guarantee")
@EnsembleTest
class LockCommandTest {
    private static final Duration WAIT = Duration.ofSeconds(60);

    EmbeddedEnsemble ensemble;
    @TempDir
    Path dir;

    private Map<String, String> env() {
        return Map.of("BATON_CONNECT", ensemble.connectString());
    }

    /** The lock's nodes; none while its folder does not exist (yet, or any more: it is a container). */
    private static List<String> nodes(BatonClient client, String path) throws InterruptedException {
        try {
            return client.getChildren().forPath(path);
        } catch (dev.baton.framework.NoNodeException e) {
            return List.of();
        }
    }

    private static String name(TestInfo info) {
        return info.getTestMethod().orElseThrow().getName();
    }

    @Test
    void twoLockProcessesNeverRunTheirCommandsAtTheSameTime(TestInfo info) throws Exception {
        Path log = dir.resolve("critical-section.log");
        String body = "for i in 1 2 3; do echo \"enter $$ $BATON_FENCE\" >> " + log + "; sleep 0.2; echo \"leave $$\" >> " + log + "; done";
        List<BatonProcess> processes = new ArrayList<>();
        for (int p = 0; p < 3; p++) {
            processes.add(BatonProcess.start(dir, env(), "lock", name(info), "--", "sh", "-c", body));
        }
        for (BatonProcess p : processes) {
            assertThat(p.exitCode(WAIT)).as("stderr: %s", p.stderr()).isZero();
        }
        List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
        assertThat(lines).hasSize(18);
        long lastFence = -1;
        for (int i = 0; i < lines.size(); i += 2) {
            String[] enter = lines.get(i).split(" ");
            String[] leave = lines.get(i + 1).split(" ");
            assertThat(enter[0]).as("line %d of %s", i, lines).isEqualTo("enter");
            assertThat(leave[0]).as("line %d of %s", i + 1, lines).isEqualTo("leave");
            assertThat(leave[1]).as("the same process leaves that entered").isEqualTo(enter[1]);
            long fence = Long.parseLong(enter[2]);
            assertThat(fence).as("fencing tokens increase from holder to holder").isGreaterThanOrEqualTo(lastFence);
            lastFence = fence;
        }
    }

    @Test
    void theCommandsExitCodeIsPassedThroughIncludingDeathBySignal(TestInfo info) throws Exception {
        try (BatonProcess seven = BatonProcess.start(dir, env(), "lock", name(info), "--", "sh", "-c", "exit 7")) {
            assertThat(seven.exitCode(WAIT)).isEqualTo(7);
        }
        try (BatonProcess killed = BatonProcess.start(dir, env(), "lock", name(info), "--", "sh", "-c", "kill -TERM $$")) {
            assertThat(killed.exitCode(WAIT)).as("128 + SIGTERM").isEqualTo(143);
        }
    }

    @Test
    void theCommandReadsBatonsStandardInputFromWhereBatonStands(TestInfo info) throws Exception {
        Path input = dir.resolve("input.txt");
        Files.writeString(input, "header\nbody 1\nbody 2\n");
        // the shell reads the first line itself, then runs baton on the rest of the same open file
        BatonProcess lock = BatonProcess.startVia(dir, env(), List.of("sh", "-c", "{ read h; exec \"$@\"; } < " + input, "sh"),
            "lock", name(info), "--", "cat");
        assertThat(lock.finish(WAIT)).as("stderr: %s", lock.stderr()).isZero();
        assertThat(lock.stdout()).as("what cat read").isEqualTo("body 1\nbody 2\n");
    }

    @Test
    void tryOnAHeldLockExitsOneAndATimeoutToo(TestInfo info, BatonClient observer) throws Exception {
        Path marker = dir.resolve("holding");
        try (BatonProcess holder = BatonProcess.start(dir, env(), "lock", name(info), "--", "sh", "-c",
            "touch " + marker + "; sleep 30")) {
            await().atMost(WAIT).until(() -> Files.exists(marker));
            try (BatonProcess tryer = BatonProcess.start(dir, env(), "lock", name(info), "--try", "--", "true")) {
                assertThat(tryer.exitCode(WAIT)).isEqualTo(ExitCodes.NOT_ACQUIRED);
                assertThat(tryer.stderr()).contains("not acquired (it is held)");
            }
            try (BatonProcess waiter = BatonProcess.start(dir, env(), "lock", name(info), "--timeout", "300ms", "--", "true")) {
                assertThat(waiter.exitCode(WAIT)).isEqualTo(ExitCodes.NOT_ACQUIRED);
            }
            assertThat(nodes(observer, "/baton/locks/" + name(info))).as("no waiter left a node").hasSize(1);
        }
    }

    @Test
    void aSignalWhileWaitingGivesUpThePlaceInLineAndExits128PlusItsNumber(TestInfo info, BatonClient observer) throws Exception {
        Path marker = dir.resolve("holding");
        String path = "/baton/locks/" + name(info);
        try (BatonProcess holder = BatonProcess.start(dir, env(), "lock", name(info), "--", "sh", "-c", "touch " + marker + "; sleep 30")) {
            await().atMost(WAIT).until(() -> Files.exists(marker));
            try (BatonProcess waiter = BatonProcess.start(dir, env(), "lock", name(info), "--", "true")) {
                await().atMost(WAIT).until(() -> nodes(observer, path).size() == 2);
                waiter.signal("TERM");
                assertThat(waiter.exitCode(WAIT)).as("128 + SIGTERM").isEqualTo(143);
                assertThat(waiter.stderr()).contains("interrupted (SIGTERM) while waiting");
                await().atMost(WAIT).until(() -> nodes(observer, path).size() == 1);
            }
            // a job put in the background by a non-interactive shell starts with SIGINT ignored, and baton
            // inherits that: the kernel drops the signal, so Ctrl-C can only be checked where it is not
            assumeFalse(BatonProcess.sigintIgnoredHere(), "this JVM was started with SIGINT ignored (a background job of a "
                + "non-interactive shell); baton inherits that, so SIGINT cannot reach it here. SIGTERM was checked.");
            try (BatonProcess waiter = BatonProcess.start(dir, env(), "lock", name(info), "--", "true")) {
                await().atMost(WAIT).until(() -> nodes(observer, path).size() == 2);
                waiter.signal("INT");
                assertThat(waiter.exitCode(WAIT)).as("Ctrl-C: 128 + SIGINT").isEqualTo(130);
                await().atMost(WAIT).until(() -> nodes(observer, path).size() == 1);
            }
        }
    }

    @Test
    void aSecondSigtermKillsACommandThatIgnoredTheFirstAndReleasesTheLock(TestInfo info, BatonClient observer) throws Exception {
        Path heartbeat = dir.resolve("heartbeat");
        String path = "/baton/locks/" + name(info);
        // a command that ignores SIGINT and SIGTERM: only SIGKILL stops it
        String stubborn = "trap '' INT TERM; while true; do date +%s%N >> " + heartbeat + "; sleep 0.05; done";
        try (BatonProcess holder = BatonProcess.start(dir, env(), "lock", name(info), "--", "sh", "-c", stubborn)) {
            await().atMost(WAIT).until(() -> Files.exists(heartbeat) && Files.size(heartbeat) > 0);
            holder.signal("TERM");
            await("baton says the first SIGTERM was passed on, and what a second one does").atMost(WAIT)
                .until(() -> holder.stderr().contains("baton: SIGTERM passed on to the command; a second SIGINT or SIGTERM kills it"));
            long beats = Files.size(heartbeat);
            await("the command ignores it and runs on").atMost(WAIT).until(() -> Files.size(heartbeat) > beats);
            assertThat(nodes(observer, path)).as("still holding").hasSize(1);
            holder.signal("TERM");
            assertThat(holder.exitCode(Duration.ofSeconds(20))).as("the command died of SIGKILL, passed through: 128 + 9").isEqualTo(137);
            assertThat(holder.stderr()).contains("baton: a second SIGTERM: killing the command (SIGKILL)");
            await("the lock is given back").atMost(WAIT).until(() -> nodes(observer, path).isEmpty());
        }
    }

    @Test
    void aLockLostMidCommandKillsTheCommandBeforeAnyoneElseHoldsAndExits75(TestInfo info, BatonClient observer) throws Exception {
        Path heartbeat = dir.resolve("heartbeat");
        Path marker = dir.resolve("second-holds");
        String path = "/baton/locks/" + name(info);
        // a command that ignores SIGTERM and writes a heartbeat: only SIGKILL stops it
        String stubborn = "trap '' TERM; while true; do date +%s%N >> " + heartbeat + "; sleep 0.05; done";
        try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1));
             BatonProcess holder = BatonProcess.start(dir, Map.of("BATON_CONNECT", proxy.connectString()),
                 "lock", name(info), "--session-timeout", "3s", "--kill-grace", "500ms", "--", "sh", "-c", stubborn)) {
            await().atMost(WAIT).until(() -> Files.exists(heartbeat) && Files.size(heartbeat) > 0);
            proxy.cut();
            try (BatonProcess second = BatonProcess.start(dir, env(), "lock", name(info), "--", "sh", "-c",
                "date +%s%N > " + marker)) {
                assertThat(holder.exitCode(WAIT)).isEqualTo(ExitCodes.LOST);
                assertThat(holder.stderr()).contains("lock " + name(info) + " lost");
                assertThat(second.exitCode(WAIT)).isZero();
            }
            List<String> beats = Files.readAllLines(heartbeat, StandardCharsets.UTF_8);
            long lastBeat = Long.parseLong(beats.get(beats.size() - 1).trim());
            long secondHeld = Long.parseLong(Files.readString(marker).trim());
            assertThat(lastBeat).as("the lost holder's command was dead before the next holder started").isLessThan(secondHeld);
            // (the folder itself is a container: the servers may reap it once it is empty)
            await("no node of either holder is left in line").atMost(WAIT)
                .until(() -> nodes(observer, path).isEmpty());
        }
    }
}
