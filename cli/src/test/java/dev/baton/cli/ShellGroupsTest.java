package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.recipes.lock.InterProcessSemaphoreV2;
import dev.baton.recipes.lock.Lease;
import dev.baton.test.EnsembleTest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * Commands that coordinate several processes from a shell — {@code sem} (at most N at once),
 * {@code barrier sync} (start together) — and {@code status}, which shows who holds and who waits.
 */
@EnsembleTest
class ShellGroupsTest extends AgainstEnsemble {
    @Test
    void aSemaphoreOfTwoNeverRunsMoreThanTwoCommandsAtOnce() throws Exception {
        Path log = dir.resolve("inside.log");
        // each command logs +1 on entry and -1 on exit; the running sum is how many are inside
        String body = "echo +1 >> " + log + "; sleep 0.4; echo -1 >> " + log;
        List<BatonProcess> processes = new ArrayList<>();
        try {
            for (int i = 0; i < 4; i++) {
                processes.add(start("sem", "workers", "-n", "2", "--", "sh", "-c", body));
            }
            for (BatonProcess p : processes) {
                assertThat(p.exitCode(WAIT)).as("stderr: %s", p.stderr()).isZero();
            }
        } finally {
            processes.forEach(BatonProcess::close);
        }
        List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
        assertThat(lines).hasSize(8);
        int inside = 0;
        int most = 0;
        for (String line : lines) {
            inside += Integer.parseInt(line.trim());
            most = Math.max(most, inside);
        }
        assertThat(most).as("at most two inside at any moment: %s", lines).isLessThanOrEqualTo(2);
    }

    @Test
    void statusShowsWhoHoldsALockAndWhoWaitsInOrder() throws Exception {
        Path holding = dir.resolve("holding");
        try (BatonProcess holder = start("lock", "/shell/status-lock", "--", "sh", "-c", "touch " + holding + "; sleep 30")) {
            await().atMost(WAIT).until(() -> Files.exists(holding));
            try (BatonProcess waiter = start("lock", "/shell/status-lock", "--", "true")) {
                await().atMost(WAIT).until(() -> {
                    try (BatonProcess status = start("status", "/shell/status-lock")) {
                        return status.exitCode(WAIT) == 0 && status.stdout().contains("2. waits");
                    }
                });
                try (BatonProcess status = start("status", "/shell/status-lock")) {
                    assertThat(status.exitCode(WAIT)).isZero();
                    String out = status.stdout();
                    assertThat(out).contains("/shell/status-lock:");
                    assertThat(out.indexOf("1. holds")).as("holder listed first: %s", out).isPositive()
                        .isLessThan(out.indexOf("2. waits"));
                }
            }
        }
    }

    @Test
    void statusShowsASemaphoreLeaseWhoseOwnerIsStillWaitingAsNotHolding(BatonClient a, BatonClient b) throws Exception {
        // one lease: a holds it; b has made its lease node and, heading the internal mutex, waits for a's to go
        Lease held = new InterProcessSemaphoreV2(a, "/shell/status-sem", 1).acquire(Duration.ofSeconds(30));
        CompletableFuture<Lease> waiting = new InterProcessSemaphoreV2(b, "/shell/status-sem", 1).acquireAsync(Duration.ofSeconds(60));
        try {
            await().atMost(WAIT).until(() -> a.getChildren().forPath("/shell/status-sem/leases").size() == 2);
            String session = "session 0x" + Long.toHexString(b.sessionId());
            for (String path : List.of("/shell/status-sem/leases", "/shell/status-sem")) {
                try (BatonProcess status = start("status", path)) {
                    assertThat(status.exitCode(WAIT)).as("stderr: %s", status.stderr()).isZero();
                    String out = status.stdout();
                    assertThat(out).as("status %s", path).containsPattern("1\\. holds +\\S+lease-\\d{10} .*session 0x"
                        + Long.toHexString(a.sessionId()));
                    assertThat(out.lines().filter(l -> l.contains(session)).toList()).as("status %s: b's lease is not held yet", path)
                        .singleElement().asString().contains("2. counting").doesNotContain("holds");
                }
            }
            assertThat(waiting).isNotDone();
        } finally {
            // b's attempt is withdrawn, not completed: the waiting itself is all this test is about
            waiting.cancel(true);
            held.close();
        }
    }

    @Test
    void barrierSyncRunsEachCommandOnlyOnceAllMembersHaveArrived(BatonClient observer) throws Exception {
        Path log = dir.resolve("sync.log");
        try (BatonProcess first = start("barrier", "sync", "/shell/sync", "-n", "2", "--", "sh", "-c", "echo first >> " + log)) {
            // the first member is in (its node is under the barrier), and alone it does not start
            await().atMost(WAIT).until(() -> observer.checkExists().forPath("/shell/sync") != null
                && !observer.getChildren().forPath("/shell/sync").isEmpty());
            await().during(Duration.ofMillis(500)).atMost(WAIT).until(() -> first.isAlive() && !Files.exists(log));
            try (BatonProcess second = start("barrier", "sync", "/shell/sync", "-n", "2", "--", "sh", "-c", "echo second >> " + log)) {
                assertThat(second.exitCode(WAIT)).as("stderr: %s", second.stderr()).isZero();
                assertThat(first.exitCode(WAIT)).as("stderr: %s", first.stderr()).isZero();
            }
        }
        assertThat(Files.readAllLines(log, StandardCharsets.UTF_8)).containsExactlyInAnyOrder("first", "second");
    }

    /**
     * A gate and a sync of one relative NAME are two things: the double barrier's node stays after
     * its last round, and when both lived under /baton/barriers/NAME, {@code barrier wait NAME} read
     * the finished sync's node as a closed gate and waited for ever.
     */
    @Test
    void aFinishedSyncIsNoClosedGateOfTheSameName(BatonClient observer) throws Exception {
        try (BatonProcess sync = start("barrier", "sync", "nightly-shared-name", "-n", "1", "--", "true")) {
            assertThat(sync.exitCode(WAIT)).as("stderr: %s", sync.stderr()).isZero();
        }
        assertThat(observer.checkExists().forPath("/baton/syncs/nightly-shared-name")).as("the sync's node").isNotNull();
        try (BatonProcess wait = start("barrier", "wait", "nightly-shared-name", "--timeout", "2s")) {
            assertThat(wait.exitCode(WAIT)).as("no gate was set: wait passes; stderr: %s", wait.stderr()).isZero();
        }
    }

    /** As lock, sem and elect do: a typo in CMD is refused before entering, not after everyone waited for it. */
    @Test
    void barrierSyncRefusesACommandThatCannotRunBeforeEntering(BatonClient observer) throws Exception {
        try (BatonProcess typo = start("barrier", "sync", "/shell/sync-typo", "-n", "2", "--timeout", "3s", "--",
                 "no-such-command-baton-test")) {
            assertThat(typo.exitCode(WAIT)).as("stderr: %s", typo.stderr()).isEqualTo(64);
            assertThat(typo.stderr()).contains("cannot run no-such-command-baton-test");
        }
        assertThat(observer.checkExists().forPath("/shell/sync-typo")).as("it never entered").isNull();
    }

    /**
     * A member stopped while it waits (SIGTERM here; Ctrl-C is the same path) leaves the barrier
     * at once: it used to exit with its session open, so its node stayed for the whole session
     * timeout and the next arrivals counted a member that was gone.
     */
    @Test
    void barrierSyncStoppedWhileWaitingLeavesTheBarrierAtOnce(BatonClient observer) throws Exception {
        String path = "/shell/sync-stopped";
        try (BatonProcess stopped = start("barrier", "sync", path, "-n", "2", "--session-timeout", "60s", "--", "true")) {
            await().atMost(WAIT).until(() -> observer.checkExists().forPath(path) != null
                && !observer.getChildren().forPath(path).isEmpty());
            stopped.signal("TERM");
            assertThat(stopped.exitCode(WAIT)).as("128 + SIGTERM").isEqualTo(143);
            assertThat(stopped.stderr()).contains("interrupted (SIGTERM) while waiting to enter");
        }
        await("its node gone long before its 60 s session could expire").atMost(Duration.ofSeconds(20))
            .until(() -> observer.getChildren().forPath(path).isEmpty());
    }
}
