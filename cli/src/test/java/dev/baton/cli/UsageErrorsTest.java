package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Mistakes an operator can make on the command line are told at once (exit 64), before baton
 * tries to reach an ensemble: nothing listens on port 1 here, so a command that connected first
 * would fail with 69 after its connect timeout instead.
 */
class UsageErrorsTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final Map<String, String> NOWHERE = Map.of("BATON_CONNECT", "127.0.0.1:1");

    @TempDir
    Path dir;

    private BatonProcess baton(String... args) throws Exception {
        return BatonProcess.start(dir, NOWHERE, args);
    }

    @Test
    void aWrongQueueActionOrAnEmptyPutIsAUsageError() throws Exception {
        BatonProcess frob = baton("queue", "frob", "jobs");
        assertThat(frob.finish(WAIT)).isEqualTo(ExitCodes.USAGE);
        assertThat(frob.stderr()).contains("queue action must be put, take or size, was 'frob'");
        BatonProcess empty = baton("queue", "put", "jobs");
        assertThat(empty.finish(WAIT)).isEqualTo(ExitCodes.USAGE);
        assertThat(empty.stderr()).contains("needs at least one ITEM");
    }

    @Test
    void aWrongLatchActionOrASetWithoutACountIsAUsageError() throws Exception {
        BatonProcess frob = baton("latch", "frob", "done");
        assertThat(frob.finish(WAIT)).isEqualTo(ExitCodes.USAGE);
        assertThat(frob.stderr()).contains("latch action must be set, count-down, await or get, was 'frob'");
        BatonProcess noCount = baton("latch", "set", "done");
        assertThat(noCount.finish(WAIT)).isEqualTo(ExitCodes.USAGE);
        assertThat(noCount.stderr()).contains("latch set needs a count");
        BatonProcess negative = baton("latch", "set", "done", "-4");
        assertThat(negative.finish(WAIT)).isEqualTo(ExitCodes.USAGE);
        assertThat(negative.stderr()).contains("latch count must be 0 or more, was -4");
    }

    @Test
    void aBadPortOrWeightForARegistrationIsAUsageErrorNamingIt() throws Exception {
        BatonProcess port = baton("discovery", "register", "web", "--port", "99999");
        assertThat(port.finish(WAIT)).isEqualTo(ExitCodes.USAGE);
        assertThat(port.stderr()).contains("port must be 0 to 65535, was 99999").doesNotContain("unexpected failure");
        BatonProcess weight = baton("discovery", "register", "web", "--port", "80", "--weight", "-1");
        assertThat(weight.finish(WAIT)).isEqualTo(ExitCodes.USAGE);
        assertThat(weight.stderr()).contains("weight must be 0 or more, was -1");
    }

    @Test
    void theRootAsARecipesNameIsAUsageErrorWithoutAStackTrace() throws Exception {
        String[][] commands = {
            {"lock", "/", "--", "true"}, {"sem", "-n", "2", "/", "--", "true"}, {"elect", "/", "--", "true"},
            {"id", "next", "/"}, {"names", "register", "/"}};
        for (String[] command : commands) {
            BatonProcess root = baton(command);
            assertThat(root.finish(WAIT)).as("%s; stderr: %s", String.join(" ", command), root.stderr()).isEqualTo(ExitCodes.USAGE);
            assertThat(root.stderr()).as(command[0])
                .startsWith("baton: bad name '/': a recipe needs a folder of its own, not the root")
                .doesNotContain("Exception").hasLineCount(1);
        }
    }

    @Test
    void aZeroTimeoutIsRefusedInTheWordsOfItsOption() throws Exception {
        for (String option : new String[] {"--session-timeout", "--connect-timeout"}) {
            BatonProcess ls = baton("ls", "/", option, "0s");
            assertThat(ls.finish(WAIT)).as(option).isEqualTo(ExitCodes.USAGE);
            assertThat(ls.stderr()).isEqualTo("baton: " + option + " must be more than 0\n");
        }
    }

    @Test
    void aNegativeTreeDepthIsAUsageError() throws Exception {
        BatonProcess tree = baton("tree", "/", "--depth", "-1");
        assertThat(tree.finish(WAIT)).isEqualTo(ExitCodes.USAGE);
        assertThat(tree.stderr()).isEqualTo("baton: --depth must be 0 or more, was -1\n");
    }

    @Test
    void aPayloadThatIsNotJsonIsRefusedOnOneLine() throws Exception {
        BatonProcess register = baton("discovery", "register", "web", "--port", "80", "--payload", "notjson");
        assertThat(register.finish(WAIT)).isEqualTo(ExitCodes.USAGE);
        assertThat(register.stderr()).startsWith("baton: --payload is not a JSON object: Unrecognized token 'notjson'").hasLineCount(1);
    }

    @Test
    void observingAnElectionRunsNoCommandAndCountsAtLeastOneLine() throws Exception {
        BatonProcess withCommand = baton("elect", "--observe", "billing", "--", "true");
        assertThat(withCommand.finish(WAIT)).as("a command it would not run").isEqualTo(ExitCodes.USAGE);
        assertThat(withCommand.stderr()).contains("--observe campaigns for nothing and runs no command");
        BatonProcess zero = baton("elect", "--observe", "billing", "--count", "0");
        assertThat(zero.finish(WAIT)).isEqualTo(ExitCodes.USAGE);
        assertThat(zero.stderr()).isEqualTo("baton: --count must be 1 or more, was 0\n");
    }

    @Test
    void aRelativePathIsRefusedBeforeTheEnsembleIsAskedAnything() throws Exception {
        BatonProcess status = baton("status", "relative");
        assertThat(status.finish(WAIT)).isEqualTo(ExitCodes.USAGE);
        assertThat(status.stdout()).as("nothing printed before the refusal").isEmpty();
        assertThat(status.stderr()).contains("'relative'");
        for (String command : new String[] {"get", "ls", "tree"}) {
            BatonProcess tree = baton(command, "relative");
            assertThat(tree.finish(WAIT)).as(command).isEqualTo(ExitCodes.USAGE);
        }
        BatonProcess set = baton("set", "relative", "data");
        assertThat(set.finish(WAIT)).isEqualTo(ExitCodes.USAGE);
    }

    @Test
    void aNegativeDurationIsAUsageErrorOnOneLine() throws Exception {
        for (String option : new String[] {"--timeout", "--kill-grace", "--max-hold"}) {
            BatonProcess lock = baton("lock", "jobs", option, "PT-1S", "--", "true");
            assertThat(lock.finish(WAIT)).as("%s PT-1S; stderr: %s", option, lock.stderr()).isEqualTo(ExitCodes.USAGE);
            assertThat(lock.stderr()).as(option)
                .isEqualTo("baton: invalid value for option '" + option + "': 'PT-1S' must not be negative (see 'baton lock --help')\n");
        }
        BatonProcess session = baton("ls", "/", "--session-timeout", "PT-5S");
        assertThat(session.finish(WAIT)).isEqualTo(ExitCodes.USAGE);
        assertThat(session.stderr()).contains("'PT-5S' must not be negative");
    }

    @Test
    void anUnknownCommandOrOptionSuggestsTheClosestOne() throws Exception {
        BatonProcess lok = baton("lok", "jobs");
        assertThat(lok.finish(WAIT)).isEqualTo(ExitCodes.USAGE);
        assertThat(lok.stderr()).isEqualTo("baton: unknown command 'lok'; did you mean lock? (see 'baton --help')\n");
        BatonProcess tri = baton("lock", "--tri", "jobs");
        assertThat(tri.finish(WAIT)).isEqualTo(ExitCodes.USAGE);
        assertThat(tri.stderr()).contains("unknown option '--tri'; did you mean --try?");
    }

    @Test
    void versionIsAnOptionOfTheTopCommandOnly() throws Exception {
        BatonProcess top = baton("-V");
        assertThat(top.finish(WAIT)).isZero();
        assertThat(top.stdout()).startsWith("baton ");
        BatonProcess lock = baton("lock", "-V", "jobs");
        assertThat(lock.finish(WAIT)).isEqualTo(ExitCodes.USAGE);
        assertThat(lock.stderr()).contains("unknown option '-V'");
        BatonProcess help = baton("lock", "--help");
        assertThat(help.finish(WAIT)).isZero();
        assertThat(help.stdout()).doesNotContain("--version").contains("-h, --help");
    }

    @Test
    void helpShowsOptionalArgumentsAsOptionalAndDescribesEveryOption() throws Exception {
        for (String command : new String[] {"ls", "tree"}) {
            BatonProcess help = baton(command, "--help");
            assertThat(help.finish(WAIT)).isZero();
            assertThat(help.stdout()).as(command).contains("[PATH]");
        }
        BatonProcess register = baton("discovery", "register", "--help");
        assertThat(register.finish(WAIT)).isZero();
        assertThat(register.stdout())
            .containsPattern("--port=PORT +The instance's port")
            .containsPattern("--weight=W +The instance's share of calls")
            .containsPattern("--zone=ZONE +The instance's zone")
            .doesNotContain("<");
        assertThat(register.stdout().lines()).allSatisfy(line -> assertThat(line.length()).as(line).isLessThanOrEqualTo(80));
    }
}
