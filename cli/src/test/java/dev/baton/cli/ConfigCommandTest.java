package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.test.EnsembleTest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** {@code baton config} as child processes against an embedded ensemble: what a shell script and an operator see. */
@EnsembleTest
class ConfigCommandTest extends AgainstEnsemble {
    private BatonProcess ok(String... args) throws Exception {
        BatonProcess p = start(args);
        assertThat(p.finish(WAIT)).as("baton %s; stderr: %s", String.join(" ", args), p.stderr()).isZero();
        return p;
    }

    @Test
    void releasesImportRollbackAndExportWhileAWatcherPrintsEveryChange() throws Exception {
        BatonProcess first = ok("config", "release", "orders", "db/url=jdbc:one", "db/pool=10", "-m", "first");
        assertThat(first.stdout()).isEqualTo("release 1: 2 change(s) (db/url, db/pool)\n");

        try (BatonProcess watch = start("config", "watch", "orders")) {
            await().atMost(WAIT).until(() -> watch.stdout().equals("db/pool=10\ndb/url=jdbc:one\n"));
            ok("config", "set", "orders", "feature/checkout", "on");
            await().atMost(WAIT).until(() -> watch.stdout().endsWith("feature/checkout=on\n"));

            Path json = dir.resolve("orders.json");
            Files.writeString(json, "{\"db\": {\"url\": \"jdbc:two\", \"pool\": 20}}", StandardCharsets.UTF_8);
            assertThat(ok("config", "import", "orders", json.toString()).stdout()).isEqualTo("release 2: 2 change(s) (db/pool, db/url)\n");
            assertThat(ok("config", "import", "orders", json.toString()).stdout()).as("the same file again: no release")
                .isEqualTo("nothing changed: /baton/config/orders stays at release 2\n");
            await().atMost(WAIT).until(() -> watch.stdout().endsWith("db/pool=20\ndb/url=jdbc:two\n"));

            assertThat(ok("config", "get", "orders", "db/pool").stdout()).isEqualTo("20\n");
            assertThat(ok("config", "history", "orders").stdout().lines().map(l -> l.split(" ")[0]).toList()).containsExactly("2", "1");
            assertThat(ok("config", "history", "-v", "orders").stdout()).contains("    db/url: 'jdbc:one' -> 'jdbc:two'");

            assertThat(ok("config", "rollback", "orders", "1").stdout()).isEqualTo("release 3: rolled back to release 1, 2 change(s)\n");
            assertThat(ok("config", "rollback", "orders", "1").stdout()).as("already there: no release")
                .isEqualTo("nothing changed: /baton/config/orders already holds what release 1 left; it stays at release 3\n");
            await().atMost(WAIT).until(() -> watch.stdout().endsWith("db/pool=10\ndb/url=jdbc:one\n"));

            ok("config", "release", "orders", "--remove", "feature/checkout");
            await().atMost(WAIT).until(() -> watch.stdout().endsWith("feature/checkout (removed)\n"));
            if (BatonProcess.sigintIgnoredHere()) {
                // a background job of a non-interactive shell starts with SIGINT ignored and baton inherits that
                watch.signal("TERM");
                assertThat(watch.exitCode(WAIT)).as("128 + SIGTERM").isEqualTo(143);
            } else {
                watch.signal("INT");
                assertThat(watch.exitCode(WAIT)).as("Ctrl-C: 128 + SIGINT").isEqualTo(130);
            }
        }

        Path out = dir.resolve("export.properties");
        ok("config", "export", "orders", out.toString());
        assertThat(Files.readString(out, StandardCharsets.UTF_8)).isEqualTo("db/pool=10\ndb/url=jdbc\\:one\n");
        assertThat(ok("config", "ls", "orders", "--values").stdout()).isEqualTo("db/pool=10\ndb/url=jdbc:one\n");
    }

    @Test
    void aPropertiesFileImportsAsOneReleaseAndExportsAsFlatJson() throws Exception {
        Path props = dir.resolve("billing.properties");
        Files.writeString(props, "# rates\nrate/eu=3\nrate/us=4\nowner=team\\:billing\n", StandardCharsets.UTF_8);
        assertThat(ok("config", "import", "/apps/billing/cfg", props.toString()).stdout())
            .isEqualTo("release 1: 3 change(s) (owner, rate/eu, rate/us)\n");
        Path json = dir.resolve("billing.json");
        ok("config", "export", "/apps/billing/cfg", json.toString());
        assertThat(Files.readString(json, StandardCharsets.UTF_8).replaceAll("\\s", ""))
            .isEqualTo("{\"owner\":\"team:billing\",\"rate/eu\":\"3\",\"rate/us\":\"4\"}");
    }

    @Test
    void missingKeysBadKeysAndStaleReleasesExitWithTheirCodes() throws Exception {
        ok("config", "set", "/apps/billing/config", "rate", "3");
        BatonProcess missing = start("config", "get", "/apps/billing/config", "nothing");
        assertThat(missing.finish(WAIT)).isEqualTo(ExitCodes.NOT_ACQUIRED);
        assertThat(missing.stderr()).contains("no key nothing in /apps/billing/config");

        BatonProcess bad = start("config", "set", "/apps/billing/config", "/rate", "3");
        assertThat(bad.finish(WAIT)).isEqualTo(ExitCodes.USAGE);
        assertThat(bad.stderr()).contains("invalid config key '/rate': it starts with '/'");

        BatonProcess stale = start("config", "release", "/apps/billing/config", "rate=4", "--if-release", "7");
        assertThat(stale.finish(WAIT)).isEqualTo(ExitCodes.NOT_ACQUIRED);
        assertThat(stale.stderr()).contains("expected the store at release 7, but it is at release 0");
    }

    /** Runs a command that must fail: its exit code and its one line of stderr, never a stack trace. */
    private String fails(int code, String... args) throws Exception {
        BatonProcess p = start(args);
        assertThat(p.finish(WAIT)).as("baton %s; stderr: %s", String.join(" ", args), p.stderr()).isEqualTo(code);
        assertThat(p.stderr()).as("baton %s", String.join(" ", args)).doesNotContain("\tat ").doesNotContain("Exception:").hasLineCount(1);
        return p.stderr();
    }

    @Test
    void badInputIsAUsageErrorOnOneLineAndWritesNothing() throws Exception {
        ok("config", "release", "shop", "db/url=jdbc:one", "db/pool=10");
        // a key with nested keys is found out only against the store's contents: still the user's input
        assertThat(fails(ExitCodes.USAGE, "config", "release", "shop", "--remove", "db"))
            .isEqualTo("baton: invalid config key 'db': it has nested keys: remove them in the same release, or first\n");
        assertThat(fails(ExitCodes.USAGE, "config", "release", "shop", "a=1", "--if-release", "-3"))
            .contains("--if-release must be a release number (0 or more), was -3");
        assertThat(fails(ExitCodes.USAGE, "config", "release", "shop", "a=1", "a=2")).contains("key 'a' is given twice");
        assertThat(fails(ExitCodes.USAGE, "config", "release", "shop", "a=1", "--remove", "a")).contains("key 'a' is given twice");
        assertThat(fails(ExitCodes.USAGE, "config", "release", "shop", "--remove", "a", "--remove", "a"))
            .isEqualTo("baton: key 'a' is given twice: a release changes each key once\n");
        assertThat(fails(ExitCodes.USAGE, "config", "rollback", "shop", "-1")).contains("N must be a release number (0 or more), was -1");
        assertThat(fails(ExitCodes.USAGE, "config", "set", "shop", "db//url", "x")).contains("it has an empty part ('//')");

        Path big = dir.resolve("big.json");
        Files.writeString(big, "{\"big\": \"" + "v".repeat(1_100_000) + "\"}", StandardCharsets.UTF_8);
        assertThat(fails(ExitCodes.USAGE, "config", "import", "shop", big.toString())).contains("one ZooKeeper transaction carries at most");
        BatonProcess tooBig = start("config", "set", "shop", "big", "-");
        tooBig.stdin("v".repeat(1_100_000));
        assertThat(tooBig.finish(WAIT)).as(tooBig.stderr()).isEqualTo(ExitCodes.USAGE);
        assertThat(tooBig.stderr()).contains("the server accepts at most");

        assertThat(fails(ExitCodes.USAGE, "config", "import", "shop", dir.toString())).contains("cannot read " + dir + ": it is a directory");
        Path notJson = dir.resolve("bad.json");
        Files.writeString(notJson, "not json", StandardCharsets.UTF_8);
        assertThat(fails(ExitCodes.USAGE, "config", "import", "shop", notJson.toString())).startsWith("baton: not JSON (line 1, column 1): Unrecognized token 'not'");
        Path badEscape = dir.resolve("bad.properties");
        Files.writeString(badEscape, "a=\\uZZZZ\n", StandardCharsets.UTF_8);
        assertThat(fails(ExitCodes.USAGE, "config", "import", "shop", badEscape.toString())).contains("not a .properties file: Malformed");
        Path nowhere = dir.resolve("no-such-dir").resolve("out.json");
        assertThat(fails(ExitCodes.USAGE, "config", "export", "shop", nowhere.toString())).contains("cannot write " + nowhere + ": no such directory");

        assertThat(ok("config", "history", "shop").stdout().lines().count()).as("only the first release was written").isEqualTo(1);

        ok("config", "release", "shop", "db/pool=11", "-m", "two\nlines");
        assertThat(ok("config", "history", "shop").stdout().lines().toList()).as("one line per release, newest first")
            .hasSize(2).allMatch(l -> l.matches("\\d+  \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z  \\d+ change\\(s\\)(  .+)?"))
            .first().asString().endsWith("  1 change(s)  two\\nlines");
        ok("config", "release", "shop", "db/pool=10");
        assertThat(ok("config", "ls", "shop", "--values").stdout()).isEqualTo("db/pool=10\ndb/url=jdbc:one\n");
    }
}
