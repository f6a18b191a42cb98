package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.framework.NoNodeException;
import dev.baton.test.ChaosProxy;
import dev.baton.test.EnsembleTest;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A command run under a lock must not outlive it: not when baton is killed outright or stopped,
 * not when its supervisor dies, not through background processes it started, not through
 * processes that moved to a process group of their own, not after a loss. Each test records
 * heartbeats of the command's processes and when the next holder started, or looks at the
 * command's processes at the moment the holder's node goes, and compares: the guarantee is an
 * order of events, so the tests assert the order, not how fast it went.
 */
// judged against session expiry with baton's 500 ms margin: runs alone on the machine (cli/pom.xml)
@Tag("kill-guarantee")
@EnsembleTest
class CommandGuardTest extends AgainstEnsemble {
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

    private static List<String> nodes(BatonClient client, String path) throws InterruptedException {
        try {
            return client.getChildren().forPath(path);
        } catch (NoNodeException e) {
            return List.of();
        }
    }

    /** The only node of the lock at {@code path}, once there is one: the holder's. */
    private static String holderNode(BatonClient observer, String path) {
        await().atMost(WAIT).until(() -> nodes(observer, path).size() == 1);
        try {
            return nodes(observer, path).get(0);
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    /**
     * Waits until {@code node} is gone from the lock at {@code path} — released, or deleted with
     * its session — and returns those of {@code processes} that still ran at that moment: the
     * ones that outlived the holder's hold on the lock.
     */
    private static List<ProcessHandle> runningWhenGone(BatonClient observer, String path, String node, List<ProcessHandle> processes) {
        await().pollInterval(Duration.ofMillis(5)).atMost(WAIT).until(() -> !nodes(observer, path).contains(node));
        return processes.stream().filter(BatonProcess::running).toList();
    }

    /** The process group of {@code process}, from /proc; -1 if it is gone. */
    private static long processGroup(ProcessHandle process) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(process.pid()), "stat"));
            return Long.parseLong(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[2]);
        } catch (java.io.IOException gone) {
            return -1;
        }
    }

    private static Optional<Path> onPath(String program) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path candidate = Path.of(dir.isEmpty() ? "." : dir, program);
            if (Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
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
            String held = holderNode(observer, "/baton/locks/guarded");
            await().atMost(WAIT).until(() -> beating(main) && beating(background));
            commandProcesses.addAll(holder.descendants());
            try (BatonProcess waiter = start("lock", "guarded", "--", "sh", "-c", "date +%s%N > " + next)) {
                await().atMost(WAIT).until(() -> nodes(observer, "/baton/locks/guarded").size() == 2);

                holder.kill();

                assertThat(runningWhenGone(observer, "/baton/locks/guarded", held, commandProcesses))
                    .as("processes of the command still running when the killed baton's session ended").isEmpty();
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
    void aCommandThatMovedToAProcessGroupOfItsOwnStillDiesWithBaton(BatonClient observer) throws Exception {
        Path beats = dir.resolve("regrouped.beats");
        Path next = dir.resolve("next-holder");
        // coreutils' timeout puts itself and its child in a process group of their own
        String command = "timeout 60 sh -c '" + heartbeat(beats, false) + "'";
        List<ProcessHandle> commandProcesses = new ArrayList<>();
        try (BatonProcess holder = start("lock", "regrouped", "--session-timeout", "3s", "--kill-grace", "500ms",
                 "--", "sh", "-c", command)) {
            String held = holderNode(observer, "/baton/locks/regrouped");
            await().atMost(WAIT).until(() -> beating(beats));
            commandProcesses.addAll(holder.descendants());
            try (BatonProcess waiter = start("lock", "regrouped", "--", "sh", "-c", "date +%s%N > " + next)) {
                await().atMost(WAIT).until(() -> nodes(observer, "/baton/locks/regrouped").size() == 2);

                holder.kill();

                assertThat(runningWhenGone(observer, "/baton/locks/regrouped", held, commandProcesses))
                    .as("processes of the command still running when the killed baton's session ended").isEmpty();
                assertThat(waiter.exitCode(WAIT)).as("stderr: %s", waiter.stderr()).isZero();
            }
            long nextHeld = Long.parseLong(Files.readString(next).trim());
            assertThat(lastBeat(beats)).as("the command under timeout was dead before the next holder started").isLessThan(nextHeld);
        } finally {
            commandProcesses.forEach(ProcessHandle::destroyForcibly);
        }
    }

    @Test
    void aStoppedBatonsCommandIsKilledBeforeItsSessionCanExpire(BatonClient observer) throws Exception {
        Path beats = dir.resolve("stopped.beats");
        Path next = dir.resolve("next-holder");
        List<ProcessHandle> commandProcesses = new ArrayList<>();
        try (BatonProcess holder = start("lock", "stopped", "--session-timeout", "3s", "--kill-grace", "500ms",
                 "--", "sh", "-c", heartbeat(beats, true))) {
            String held = holderNode(observer, "/baton/locks/stopped");
            await().atMost(WAIT).until(() -> beating(beats));
            commandProcesses.addAll(holder.descendants());
            try (BatonProcess waiter = start("lock", "stopped", "--", "sh", "-c", "date +%s%N > " + next)) {
                await().atMost(WAIT).until(() -> nodes(observer, "/baton/locks/stopped").size() == 2);

                holder.signal("STOP"); // Ctrl-Z, a debugger, a frozen JVM: baton can do nothing, its session runs out

                assertThat(runningWhenGone(observer, "/baton/locks/stopped", held, commandProcesses))
                    .as("processes of the command still running when the stopped baton's session expired").isEmpty();
                assertThat(waiter.exitCode(WAIT)).as("stderr: %s", waiter.stderr()).isZero();
            }
            long nextHeld = Long.parseLong(Files.readString(next).trim());
            assertThat(lastBeat(beats)).as("the command was dead before the next holder started").isLessThan(nextHeld);

            holder.signal("CONT");
            assertThat(holder.exitCode(WAIT)).as("stderr: %s", holder.stderr()).isEqualTo(ExitCodes.LOST);
            assertThat(holder.stderr()).contains("stopped the command");
        } finally {
            commandProcesses.forEach(ProcessHandle::destroyForcibly);
        }
    }

    @Test
    void aKilledSupervisorDoesNotLetBatonReleaseWhileTheCommandRuns(BatonClient observer) throws Exception {
        Path beats = dir.resolve("orphan.beats");
        Path next = dir.resolve("next-holder");
        List<ProcessHandle> commandProcesses = new ArrayList<>();
        try (BatonProcess holder = start("lock", "orphan", "--session-timeout", "3s", "--kill-grace", "500ms",
                 "--", "sh", "-c", heartbeat(beats, true))) {
            String held = holderNode(observer, "/baton/locks/orphan");
            await().atMost(WAIT).until(() -> beating(beats));
            commandProcesses.addAll(holder.descendants());
            try (BatonProcess waiter = start("lock", "orphan", "--", "sh", "-c", "date +%s%N > " + next)) {
                await().atMost(WAIT).until(() -> nodes(observer, "/baton/locks/orphan").size() == 2);

                // SIGKILL the supervisor, as the OOM killer would, and freeze the rest of it (its watcher, in its
                // process group; the command has one of its own): then nothing but baton can stop the command
                ProcessHandle supervisor = holder.supervisor();
                for (ProcessHandle helper : supervisor.children().filter(c -> processGroup(c) == supervisor.pid()).toList()) {
                    commandProcesses.add(helper);
                    new ProcessBuilder("kill", "-STOP", Long.toString(helper.pid())).start().waitFor();
                }
                supervisor.destroyForcibly();

                assertThat(runningWhenGone(observer, "/baton/locks/orphan", held, commandProcesses))
                    .as("processes of the command still running when baton let the lock go").isEmpty();
                assertThat(waiter.exitCode(WAIT)).as("stderr: %s", waiter.stderr()).isZero();
            }
            long nextHeld = Long.parseLong(Files.readString(next).trim());
            assertThat(lastBeat(beats)).as("the command was dead before the next holder started").isLessThan(nextHeld);
            assertThat(holder.exitCode(WAIT)).as("stderr: %s", holder.stderr()).isEqualTo(ExitCodes.SOFTWARE);
            assertThat(holder.stderr()).contains("supervisor");
        } finally {
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
    void aBackgroundProcessInAProcessGroupOfItsOwnIsStoppedBeforeTheLockIsReleased() throws Exception {
        Path timeoutPid = dir.resolve("timeout.pid");
        Path loopPid = dir.resolve("loop.pid");
        Path beats = dir.resolve("background.beats");
        // the command exits at once, leaving behind timeout (a process group of its own) and the loop it runs
        String command = "timeout 60 sh -c 'echo $$ > " + loopPid + "; " + heartbeat(beats, true) + "' & echo $! > " + timeoutPid
            + "; while [ ! -s " + beats + " ]; do sleep 0.01; done";
        try {
            BatonProcess holder = start("lock", "leaves-group", "--session-timeout", "3s", "--kill-grace", "500ms", "--", "sh", "-c", command);
            assertThat(holder.finish(WAIT)).as("stderr: %s", holder.stderr()).isZero();
            for (Path pid : List.of(timeoutPid, loopPid)) {
                ProcessHandle left = ProcessHandle.of(Long.parseLong(Files.readString(pid).trim())).orElse(null);
                assertThat(left != null && BatonProcess.running(left)).as("%s: still runs after baton exited", pid.getFileName()).isFalse();
            }
        } finally {
            killLeftover(loopPid);
            killLeftover(timeoutPid);
        }
    }

    @Test
    void aProcessWhoseMainThreadEndedWhileItsOtherThreadsRunIsStoppedBeforeTheLockIsReleased() throws Exception {
        Assumptions.assumeTrue(onPath("python3").isPresent(), "python3 makes the process; it is not installed");
        Path script = dir.resolve("zombie_leader.py");
        Path beats = dir.resolve("threads.beats");
        Path pid = dir.resolve("threads.pid");
        // the main thread ends (pthread_exit) while another goes on beating: the process shows as a zombie, and runs
        Files.writeString(script, String.join("\n",
            "import ctypes, os, sys, threading, time",
            "open(sys.argv[2], 'w').write('%d\\n' % os.getpid())",
            "def beat():",
            "    while True:",
            "        with open(sys.argv[1], 'a') as f:",
            "            f.write('%d\\n' % time.time_ns())",
            "        time.sleep(0.05)",
            "threading.Thread(target=beat).start()",
            "ctypes.CDLL(None).pthread_exit(None)",
            ""));
        String command = "python3 " + script + " " + beats + " " + pid + " & while [ ! -s " + beats + " ]; do sleep 0.01; done";
        try {
            BatonProcess holder = start("lock", "threads", "--session-timeout", "3s", "--kill-grace", "500ms", "--", "sh", "-c", command);
            assertThat(holder.finish(WAIT)).as("stderr: %s", holder.stderr()).isZero();
            ProcessHandle left = ProcessHandle.of(Long.parseLong(Files.readString(pid).trim())).orElse(null);
            assertThat(left != null && BatonProcess.running(left))
                .as("a thread of the process left behind still runs after baton exited").isFalse();
        } finally {
            killLeftover(pid);
        }
    }

    @Test
    void aSetsidThatForksDoesNotLetBatonReleaseBeforeTheCommandEnds(BatonClient observer) throws Exception {
        Path realSetsid = onPath("setsid").orElseThrow();
        // a setsid started as the leader of a process group must fork to make a new session; without
        // --wait it then returns at once, with the command still to run
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path shim = bin.resolve("setsid");
        Files.writeString(shim, "#!/bin/bash\nset -m\n" + realSetsid + " \"$@\" &\nwait $!\n");
        Files.setPosixFilePermissions(shim, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path beats = dir.resolve("forked.beats");
        Path next = dir.resolve("next-holder");
        String command = "i=0; while [ $i -lt 10 ]; do date +%s%N >> " + beats + "; sleep 0.1; i=$((i+1)); done";
        Map<String, String> env = Map.of("BATON_CONNECT", ensemble.connectString(), "PATH", bin + File.pathSeparator + System.getenv("PATH"));
        try (BatonProcess holder = BatonProcess.start(dir, env, "lock", "forked", "--", "sh", "-c", command)) {
            holderNode(observer, "/baton/locks/forked");
            try (BatonProcess waiter = start("lock", "forked", "--", "sh", "-c", "date +%s%N > " + next)) {
                assertThat(holder.exitCode(WAIT)).as("stderr: %s", holder.stderr()).isZero();
                assertThat(waiter.exitCode(WAIT)).as("stderr: %s", waiter.stderr()).isZero();
            }
            assertThat(Files.readAllLines(beats)).as("the command ran to its end").hasSize(10);
            long nextHeld = Long.parseLong(Files.readString(next).trim());
            assertThat(lastBeat(beats)).as("the command had ended before the next holder started").isLessThan(nextHeld);
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
