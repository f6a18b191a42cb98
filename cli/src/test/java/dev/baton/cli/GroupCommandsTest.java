package dev.baton.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.recipes.group.GroupMember;
import dev.baton.recipes.group.IdAllocator;
import dev.baton.test.EnsembleTest;
import org.junit.jupiter.api.Test;

/** {@code baton members}, {@code baton names} and {@code baton id} as child processes: what a shell script sees. */
@EnsembleTest
class GroupCommandsTest extends AgainstEnsemble {
    private Ran run(String... args) throws Exception {
        try (BatonProcess process = start(args)) {
            int code = process.exitCode(WAIT);
            return new Ran(code, process.stdout(), process.stderr());
        }
    }

    private record Ran(int code, String out, String err) {
    }

    @Test
    void membersListsAGroupAndWatchPrintsJoinsChangesAndLeaves(BatonClient client) throws Exception {
        try (GroupMember first = new GroupMember(client, "/baton/groups/search", "node-1", "10.0.0.1".getBytes(UTF_8))) {
            first.start();
            first.awaitJoined(WAIT);
            Ran list = run("members", "search");
            assertThat(list.code()).as(list.err()).isZero();
            assertThat(list.out()).isEqualTo("node-1  10.0.0.1\n");

            try (BatonProcess watch = start("members", "--watch", "search")) {
                await().atMost(WAIT).until(() -> watch.stdout().contains("+ node-1  10.0.0.1\n"));
                GroupMember second = new GroupMember(client, "/baton/groups/search", "node-2", "10.0.0.2".getBytes(UTF_8));
                second.start();
                await().atMost(WAIT).until(() -> watch.stdout().contains("+ node-2  10.0.0.2\n"));
                second.setThisData("10.0.0.22".getBytes(UTF_8));
                await().atMost(WAIT).until(() -> watch.stdout().contains("~ node-2  10.0.0.22\n"));
                second.close();
                await().atMost(WAIT).until(() -> watch.stdout().contains("- node-2\n"));
                assertThat(watch.stdout()).isEqualTo("+ node-1  10.0.0.1\n+ node-2  10.0.0.2\n~ node-2  10.0.0.22\n- node-2\n");
            }
        }
        assertThat(run("members", "nobody-here").out()).as("a group nobody joined has no members").isEmpty();
    }

    @Test
    void namesAreRegisteredListedLookedUpAndReleased() throws Exception {
        Ran first = run("names", "register", "/business/metrics", "10.0.0.1:9100");
        assertThat(first.code()).as(first.err()).isZero();
        String name = first.out().trim();
        assertThat(name).matches("/business/metrics\\d{10}");
        String second = run("names", "register", "/business/metrics").out().trim();

        assertThat(run("names", "ls", "/business").out()).isEqualTo(name + "\n" + second + "\n");
        assertThat(run("names", "lookup", name).out()).isEqualTo("10.0.0.1:9100\n");
        assertThat(run("names", "release", name).code()).isZero();
        Ran gone = run("names", "lookup", name);
        assertThat(gone.code()).isEqualTo(ExitCodes.NOT_ACQUIRED);
        assertThat(gone.err()).contains("no name " + name);
        assertThat(run("names", "release", name).code()).isEqualTo(ExitCodes.NOT_ACQUIRED);

        Ran bad = run("names", "lookup", "/business/metrics");
        assertThat(bad.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(bad.err()).contains("a name ends with a 10-digit sequence number");
        assertThat(run("names", "register", "relative/job").out()).as("under /baton/names").startsWith("/baton/names/relative/job");
    }

    @Test
    void anEphemeralNameLastsWhileBatonRuns() throws Exception {
        try (BatonProcess holder = start("names", "register", "--ephemeral", "/svc/worker", "w")) {
            await().atMost(WAIT).until(() -> holder.stdout().matches("/svc/worker\\d{10}\n"));
            String name = holder.stdout().trim();
            assertThat(run("names", "ls", "/svc").out()).isEqualTo(name + "\n");
            holder.signal("TERM");
            assertThat(holder.exitCode(WAIT)).as("stopped by SIGTERM: 128 + 15").isEqualTo(143);
        }
        assertThat(run("names", "ls", "/svc").out()).as("released on exit").isEmpty();
    }

    @Test
    void idNextPrintsIdsLargerThanEveryIdHandedOutBefore(BatonClient client) throws Exception {
        assertThat(run("id", "next", "orders").out()).isEqualTo("1\n");
        assertThat(run("id", "next", "--count", "3", "orders").out()).isEqualTo("2\n3\n4\n");
        IdAllocator inProcess = IdAllocator.builder(client, "/baton/ids/orders").blockSize(100).build();
        long fromJava = inProcess.next();
        assertThat(fromJava).as("a Java allocator on the same node").isEqualTo(5);
        assertThat(run("id", "next", "orders").out()).as("after the Java allocator's block").isEqualTo("105\n");

        Ran zero = run("id", "next", "--count", "0", "orders");
        assertThat(zero.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(zero.err()).contains("--count must be 1 to 1000000, was 0");
    }
}
