package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * When the answer is already known, baton does not sit out its 10 s connect timeout: nothing
 * listening (every connection refused) and a host name that does not resolve fail at once,
 * naming the address. What is asserted is only that: the run, JVM start included, ends before the
 * connect timeout would have run out — sitting it out would take at least that long — however
 * busy the machine is.
 */
class ConnectFailuresTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    /** The connect timeout these would sit out, which is what they took before. */
    private static final long FAST_MILLIS = ConnectOptions.DEFAULT_CONNECT_TIMEOUT.toMillis();

    @TempDir
    Path dir;

    private record Ran(int code, String err, long millis) {
    }

    private Ran run(String... args) throws Exception {
        long start = System.nanoTime();
        BatonProcess process = BatonProcess.start(dir, Map.of(), args);
        int code = process.finish(WAIT);
        return new Ran(code, process.stderr(), (System.nanoTime() - start) / 1_000_000);
    }

    @Test
    void nothingListeningFailsAtOnceSayingSo() throws Exception {
        Ran ls = run("ls", "/", "-s", "127.0.0.1:1");
        assertThat(ls.code()).as("stderr: %s", ls.err()).isEqualTo(ExitCodes.UNAVAILABLE);
        assertThat(ls.err()).startsWith("baton: nothing is listening at 127.0.0.1:1 ");
        assertThat(ls.millis()).as("exit 69 after %d ms", ls.millis()).isLessThan(FAST_MILLIS);
    }

    @Test
    void aHostThatDoesNotResolveFailsAtOnceNamingIt() throws Exception {
        Ran lock = run("lock", "jobs", "-s", "no-such-host.invalid:2181", "--", "true");
        assertThat(lock.code()).as("stderr: %s", lock.err()).isEqualTo(ExitCodes.UNAVAILABLE);
        assertThat(lock.err()).startsWith("baton: cannot resolve host no-such-host.invalid ");
        assertThat(lock.millis()).as("exit 69 after %d ms", lock.millis()).isLessThan(FAST_MILLIS);
    }

    @Test
    void anEmptyElementOfTheConnectStringIsAUsageError() throws Exception {
        Ran get = run("get", "/x", "-s", "127.0.0.1:1,,127.0.0.1:2");
        assertThat(get.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(get.err()).contains("element 2 of 3 is empty");
    }
}
