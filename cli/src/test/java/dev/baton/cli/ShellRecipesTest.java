package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.server.LocalCertificates;
import dev.baton.test.EnsembleTest;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The recipes an operator drives from a shell script — latch, gate, discovery, the tree commands
 * — as child processes against an embedded ensemble: their output and exit codes.
 */
@EnsembleTest
class ShellRecipesTest extends AgainstEnsemble {
    /** Runs baton to its end and returns it (exit code checked by the caller). */
    private Ran run(String... args) throws Exception {
        try (BatonProcess process = start(args)) {
            int code = process.exitCode(WAIT);
            return new Ran(code, process.stdout(), process.stderr());
        }
    }

    private record Ran(int code, String out, String err) {
    }

    @Test
    void aTlsClientOfAPlainPortFailsAtOnceNamingTheHandshake() throws Exception {
        LocalCertificates ca = LocalCertificates.create(dir.resolve("ca"));
        String[] tls = {"--truststore", ca.trustStore().toString(), "--truststore-password", ca.password()};
        Ran status = run(concat(new String[] {"status"}, tls));
        assertThat(status.code()).as("stderr: %s", status.err()).isEqualTo(ExitCodes.UNAVAILABLE);
        assertThat(status.err()).contains("is unreachable over TLS (TLS handshake failed: ");
        long start = System.nanoTime();
        Ran ls = run(concat(new String[] {"ls", "/", "--connect-timeout", "60s"}, tls));
        assertThat(ls.code()).as("stderr: %s", ls.err()).isEqualTo(ExitCodes.UNAVAILABLE);
        assertThat(ls.err()).contains("cannot reach the ensemble at " + ensemble.connectString()).contains("TLS handshake failed: ");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).as("not the connect timeout").isLessThan(Duration.ofSeconds(30));
    }

    private static String[] concat(String[] first, String[] second) {
        String[] both = java.util.Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, both, first.length, second.length);
        return both;
    }

    @Test
    void aLatchCountsDownToZeroAndThenLetsItsWaitersThrough() throws Exception {
        assertThat(run("latch", "set", "done", "2").code()).isZero();
        assertThat(run("latch", "get", "done").out()).isEqualTo("2\n");
        Ran counting = run("latch", "await", "done", "--timeout", "300ms");
        assertThat(counting.code()).as("still counting").isEqualTo(ExitCodes.NOT_ACQUIRED);
        assertThat(counting.err()).as("says why, like barrier wait").isEqualTo("baton: timed out after 300ms: latch done has not counted down to zero\n");
        assertThat(run("latch", "set", "done", "5").code()).as("set again while counting").isEqualTo(ExitCodes.NOT_ACQUIRED);
        assertThat(run("latch", "count-down", "done").code()).isZero();
        assertThat(run("latch", "count-down", "done").code()).isZero();
        assertThat(run("latch", "get", "done").out()).isEqualTo("0\n");
        assertThat(run("latch", "await", "done", "--timeout", "5s").code()).isZero();
    }

    @Test
    void aLatchNeverSetIsNotThereForGetAwaitOrCountDown() throws Exception {
        for (String action : new String[] {"get", "await", "count-down"}) {
            Ran ran = run("latch", action, "never-set");
            assertThat(ran.code()).as("latch %s of a latch never set exits 1, like ls of a missing node; stderr: %s", action, ran.err())
                .isEqualTo(ExitCodes.NOT_ACQUIRED);
            assertThat(ran.out()).as("latch %s prints no count", action).isEmpty();
            assertThat(ran.err()).isEqualTo("baton: no node /baton/latches/never-set: no latch was set there (baton latch set never-set N)\n");
        }
    }

    @Test
    void aGateHoldsItsWaitersUntilItIsRemoved() throws Exception {
        assertThat(run("barrier", "set", "gate").code()).isZero();
        Ran timedOut = run("barrier", "wait", "gate", "--timeout", "300ms");
        assertThat(timedOut.code()).isEqualTo(ExitCodes.NOT_ACQUIRED);
        assertThat(timedOut.err()).as("says why, like barrier sync and queue take")
            .isEqualTo("baton: timed out after 300ms: gate gate is still closed\n");
        try (BatonProcess waiter = start("barrier", "wait", "gate")) {
            await().during(Duration.ofMillis(500)).atMost(WAIT).until(waiter::isAlive);
            assertThat(run("barrier", "remove", "gate").code()).isZero();
            assertThat(waiter.exitCode(WAIT)).as("released by the removal").isZero();
        }
    }

    @Test
    void aRegisteredInstanceIsListedWhileBatonRunsAndGoneAfterSigterm() throws Exception {
        try (BatonProcess registrant = start("discovery", "register", "orders", "--id", "o1", "--port", "8080", "--zone", "eu")) {
            await().atMost(WAIT).until(() -> run("discovery", "list", "orders").out().contains("o1"));
            Ran list = run("discovery", "list", "orders");
            assertThat(list.out()).as("one line per instance: id, address, state").startsWith("o1  127.0.0.1:8080");
            assertThat(run("discovery", "list").out()).isEqualTo("orders\n");
            registrant.signal("TERM");
            assertThat(registrant.exitCode(WAIT)).as("stopped by SIGTERM, after unregistering: 128 + 15").isEqualTo(143);
        }
        assertThat(run("discovery", "list", "orders").out()).as("unregistered on exit, not left to the session").isEmpty();
    }

    @Test
    void theTreeCommandsWriteReadAndListNodes() throws Exception {
        assertThat(run("set", "/shell/a/b", "hello").code()).as("creates the parents too").isZero();
        assertThat(run("get", "/shell/a/b").out()).isEqualTo("hello\n");
        assertThat(run("ls", "/shell/a").out()).isEqualTo("b\n");
        assertThat(run("tree", "/shell", "--data").out()).isEqualTo("/shell\n  a\n    b  = hello\n");
        Ran missing = run("get", "/shell/missing");
        assertThat(missing.code()).isEqualTo(ExitCodes.NOT_ACQUIRED);
        assertThat(missing.err()).contains("no node /shell/missing");
        Ran missingTree = run("tree", "/shell/missing");
        assertThat(missingTree.code()).as("like ls and get").isEqualTo(ExitCodes.NOT_ACQUIRED);
        assertThat(missingTree.out()).as("a missing root is not printed as if it were there").isEmpty();
        assertThat(missingTree.err()).isEqualTo("baton: no node /shell/missing\n");
        Ran missingStatus = run("status", "/shell/missing");
        assertThat(missingStatus.code()).as("like ls, get, locks and leaders").isEqualTo(ExitCodes.NOT_ACQUIRED);
        assertThat(missingStatus.out()).as("the servers are still shown").startsWith("ensemble ");
        assertThat(missingStatus.err()).isEqualTo("baton: no node /shell/missing\n");
    }

    @Test
    void anInstancesPayloadIsListedAsTheJsonItWasRegisteredWith() throws Exception {
        try (BatonProcess registrant = start("discovery", "register", "billing", "--id", "b1", "--port", "8080",
            "--payload", "{\"version\":\"1.4\",\"shards\":[1,2]}")) {
            await().atMost(WAIT).until(() -> run("discovery", "list", "billing").out().contains("b1"));
            assertThat(run("discovery", "list", "billing").out())
                .isEqualTo("b1  127.0.0.1:8080  UP  payload {\"version\":\"1.4\",\"shards\":[1,2]}\n");
            registrant.signal("TERM");
            assertThat(registrant.exitCode(WAIT)).isEqualTo(143);
        }
    }
}
