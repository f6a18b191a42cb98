package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.framework.NoNodeException;
import dev.baton.test.ChaosProxy;
import dev.baton.test.EnsembleTest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A command run under a lock must not outlive it: not when baton is killed outright, not through
 * background processes it started, not after a loss. Each test records heartbeats of the
 * command's processes and when the next holder started, and compares them.
 */
@EnsembleTest
class CommandGuardTest extends AgainstEnsemble {
    /** How soon after baton's death every process of its command must be gone. */
    private static final Duration GONE_WITHIN = Duration.ofSeconds(2);

    /** A shell loop that appends the time in nanoseconds to {@code file} every 50 ms, ignoring SIGTERM if {@code stubborn}. */
    private static String heartbeat(Path file, boolean stubborn) {
        return (stubborn ? "trap '' TERM; " : "") + "while true; do date +%s%N >> " + file + "; sleep 0.05; done";
    }

    private static boolean beating(Path file) throws Exception {
        return Files.exists(file) && Files.size(file) > 0;
    }

    private static long lastBeat(Path file) throws Exception {
        List<String> beats = Files.readAllLines(file, StandardCharsets.UTF_8);
        return Long.parseLong(beats.get(beats.size() - 1).trim());
    }

    /**
     * A background loop of the command writes its pid to {@code pidFile}: kills it if it is still
     * there (when the test failed), so a failure does not leave it running for ever.
     */
    private static void killLeftover(Path pidFile) throws Exception {
        if (Files.exists(pidFile) && Files.size(pidFile) > 0) {
            ProcessHandle.of(Long.parseLong(Files.readString(pidFile).trim())).ifPresent(ProcessHandle::destroyForcibly);
        }
    }

    private static int nodes(BatonClient client, String path) throws InterruptedException {
        try {
            return client.getChildren().forPath(path).size();
        } catch (NoNodeException e) {
            return 0;
        }
    }

    @Test
    void batonKilledWithSigkillTakesItsWholeCommandWithItBeforeAnyoneElseHolds(BatonClient observer) throws Exception {
        Path main = dir.resolve("main.beats");
        Path background = dir.resolve("background.beats");
        Path next = dir.resolve("next-holder");
        Path pid = dir.resolve("background.pid");
        // the command starts a background loop that ignores SIGTERM, then beats itself
        String command = "( " + heartbeat(background, true) + " ) & echo $! > " + pid + "; " + heartbeat(main, false);
        List<ProcessHandle> commandProcesses = new ArrayList<>();
        try (BatonProcess holder = start("lock", "guarded", "--session-timeout", "3s", "--kill-grace", "500ms",
                 "--", "sh", "-c", command)) {
            await().atMost(WAIT).until(() -> beating(main) && beating(background));
            commandProcesses.addAll(holder.descendants());
            try (BatonProcess waiter = start("lock", "guarded", "--", "sh", "-c", "date +%s%N > " + next)) {
                await().atMost(WAIT).until(() -> nodes(observer, "/baton/locks/guarded") == 2);

                holder.kill();

                await("every process of the command gone within " + GONE_WITHIN + " of baton's SIGKILL")
                    .atMost(GONE_WITHIN).until(() -> commandProcesses.stream().noneMatch(BatonProcess::running));
                assertThat(waiter.exitCode(WAIT)).as("stderr: %s", waiter.stderr()).isZero();
            }
            long nextHeld = Long.parseLong(Files.readString(next).trim());
            assertThat(lastBeat(main)).as("the command was dead before the next holder started").isLessThan(nextHeld);
            assertThat(lastBeat(background)).as("so was its background process").isLessThan(nextHeld);
        } finally {
            killLeftover(pid);
            commandProcesses.forEach(ProcessHandle::destroyForcibly);
        }
    }

    @Test
    void backgroundProcessesTheCommandLeavesAreStoppedBeforeTheLockIsReleased() throws Exception {
        Path pid = dir.resolve("background.pid");
        Path beats = dir.resolve("background.beats");
        // the command exits at once, leaving a background loop (that ignores SIGTERM) behind
        String command = "( " + heartbeat(beats, true) + " ) & echo $! > " + pid + "; while [ ! -s " + beats + " ]; do sleep 0.01; done";
        try {
            BatonProcess holder = start("lock", "leaves", "--session-timeout", "3s", "--kill-grace", "500ms", "--", "sh", "-c", command);
            assertThat(holder.finish(WAIT)).as("stderr: %s", holder.stderr()).isZero();
            ProcessHandle left = ProcessHandle.of(Long.parseLong(Files.readString(pid).trim())).orElse(null);
            assertThat(left != null && BatonProcess.running(left)).as("the background process still runs after baton exited").isFalse();
        } finally {
            killLeftover(pid);
        }
    }

    @Test
    void aLostLockStopsTheBackgroundProcessesOfTheCommandTooBeforeAnyoneElseHolds() throws Exception {
        Path beats = dir.resolve("background.beats");
        Path next = dir.resolve("next-holder");
        Path pid = dir.resolve("background.pid");
        // the command's own process dies on SIGTERM; its background loop ignores it: only SIGKILL stops it
        String command = "( " + heartbeat(beats, true) + " ) & echo $! > " + pid + "; wait";
        try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1));
             BatonProcess holder = BatonProcess.start(dir, Map.of("BATON_CONNECT", proxy.connectString()),
                 "lock", "lost", "--session-timeout", "3s", "--kill-grace", "500ms", "--", "sh", "-c", command)) {
            await().atMost(WAIT).until(() -> beating(beats));
            proxy.cut();
            try (BatonProcess second = start("lock", "lost", "--", "sh", "-c", "date +%s%N > " + next)) {
                assertThat(holder.exitCode(WAIT)).as("stderr: %s", holder.stderr()).isEqualTo(ExitCodes.LOST);
                assertThat(second.exitCode(WAIT)).as("stderr: %s", second.stderr()).isZero();
            }
            long nextHeld = Long.parseLong(Files.readString(next).trim());
            assertThat(lastBeat(beats)).as("the background process was dead before the next holder started").isLessThan(nextHeld);
        } finally {
            killLeftover(pid);
        }
    }
}
