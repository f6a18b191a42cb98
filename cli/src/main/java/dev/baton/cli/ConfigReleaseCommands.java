package dev.baton.cli;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.baton.framework.BatonClient;
import dev.baton.framework.DataTooLargeException;
import dev.baton.recipes.config.InvalidKeyException;
import dev.baton.recipes.config.NoSuchReleaseException;
import dev.baton.recipes.config.Release;
import dev.baton.recipes.config.ReleaseBuilder;
import dev.baton.recipes.config.ReleaseConflictException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code baton config release|history|rollback}: the numbered releases of a configuration store,
 * which change several keys at once; {@link #publish} also commits what {@code config import} reads.
 */
final class ConfigReleaseCommands {
    private ConfigReleaseCommands() {
    }

    @Command(name = "release",
        description = "Publish KEY=VALUE... (and --remove KEY...) as one numbered release: readers see all of it or none.")
    static final class Publish implements Callable<Integer> {
        @Mixin
        ConfigStoreOptions where;
        @Parameters(index = "1..*", paramLabel = "CHANGE", arity = "0..*", description = "KEY=VALUE: set KEY to VALUE (repeatable)")
        List<String> assignments = new ArrayList<>();
        @Option(names = "--remove", paramLabel = "KEY", description = "remove KEY in the same release (repeatable)")
        List<String> removals = new ArrayList<>();
        @Option(names = {"-m", "--message"}, paramLabel = "TEXT", defaultValue = "", description = "what the release is for, kept in the history")
        String message;
        @Option(names = "--if-release", paramLabel = "N", description = "only if the store is still at release N (else exit 1)")
        Long ifRelease;

        @Override
        public Integer call() throws InterruptedException {
            Map<String, String> sets = new LinkedHashMap<>();
            java.util.Set<String> given = new java.util.HashSet<>();
            for (String a : assignments) {
                int eq = a.indexOf('=');
                if (eq <= 0) {
                    throw new CliExit(ExitCodes.USAGE, "'" + a + "' is not KEY=VALUE");
                }
                sets.put(once(given, a.substring(0, eq)), a.substring(eq + 1));
            }
            removals.forEach(r -> once(given, r));
            if (ifRelease != null && ifRelease < 0) {
                throw new CliExit(ExitCodes.USAGE, "--if-release must be a release number (0 or more), was " + ifRelease);
            }
            if (sets.isEmpty() && removals.isEmpty()) {
                throw new CliExit(ExitCodes.USAGE, "a release needs at least one KEY=VALUE or --remove KEY");
            }
            try (BatonClient client = where.connection.connect()) {
                ReleaseBuilder release = where.writer(client).release().setAll(sets).message(message);
                removals.forEach(release::remove);
                if (ifRelease != null) {
                    release.onlyIfRelease(ifRelease);
                }
                return publish(release, where.base(), where.out());
            }
        }
    }

    /**
     * Checks {@code key} and that no earlier KEY=VALUE or --remove of this release named it (the
     * builder would let the later change win: say so instead of guessing what was meant).
     */
    private static String once(java.util.Set<String> given, String key) {
        if (!given.add(ConfigStoreOptions.key(key))) {
            throw new CliExit(ExitCodes.USAGE, "key '" + key + "' is given twice: a release changes each key once");
        }
        return key;
    }

    /** Commits {@code release} to the store at {@code base} and prints what it did; a conflict exits 1. */
    static int publish(ReleaseBuilder release, String base, PrintWriter out) throws InterruptedException {
        try {
            Release done = release.commit();
            out.println(done.changes().isEmpty()
                ? "nothing changed: " + base + " stays at release " + done.number()
                : "release " + done.number() + ": " + done.changes().size() + " change(s) (" + String.join(", ", done.keys()) + ")");
            out.flush();
            return ExitCodes.OK;
        } catch (ReleaseConflictException e) {
            throw new CliExit(ExitCodes.NOT_ACQUIRED, e.getMessage());
        } catch (InvalidKeyException | DataTooLargeException e) {
            // found only once the store is read (a removed key with nested keys) or the release sized
            // (ReleaseTooLargeException is a DataTooLargeException): still the user's input
            throw new CliExit(ExitCodes.USAGE, e.getMessage());
        }
    }

    @Command(name = "history",
        description = "List the releases the history keeps, newest first; with -v, each change with its old and new value.")
    static final class History implements Callable<Integer> {
        /** Instant.toString drops a zero millisecond part, which put one line's columns out of step with the rest. */
        private static final java.time.format.DateTimeFormatter TIME =
            java.time.format.DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSX").withZone(java.time.ZoneOffset.UTC);

        @Mixin
        ConfigStoreOptions where;
        @Option(names = {"-v", "--verbose"}, description = "show each change")
        boolean verbose;

        @Override
        public Integer call() throws InterruptedException {
            try (BatonClient client = where.connection.connect()) {
                PrintWriter out = where.out();
                for (Release r : where.writer(client).history()) {
                    // one line per release: the message's newlines shown as \n, the time always with its milliseconds
                    out.println(r.number() + "  " + TIME.format(r.time()) + "  " + r.changes().size() + " change(s)"
                        + (r.message().isEmpty() ? "" : "  " + ConfigStoreOptions.shown(r.message())));
                    if (verbose) {
                        for (Release.Change c : r.changes()) {
                            out.println("    " + c.key() + ": " + describe(c.before()) + " -> " + describe(c.after()));
                        }
                    }
                }
                out.flush();
                return ExitCodes.OK;
            }
        }

        private static String describe(java.util.Optional<byte[]> value) {
            return value.map(v -> "'" + ConfigStoreOptions.shown(new String(v, UTF_8)) + "'").orElse("(none)");
        }
    }

    @Command(name = "rollback",
        description = "Publish a release that puts back every key changed since release N as it was right after N.")
    static final class Rollback implements Callable<Integer> {
        @Mixin
        ConfigStoreOptions where;
        @Parameters(index = "1", paramLabel = "N", description = "the release to go back to")
        long number;

        @Override
        public Integer call() throws InterruptedException {
            if (number < 0) {
                throw new CliExit(ExitCodes.USAGE, "N must be a release number (0 or more), was " + number);
            }
            try (BatonClient client = where.connection.connect()) {
                Release done = where.writer(client).rollback(number);
                PrintWriter out = where.out();
                out.println(done.changes().isEmpty()
                    ? "nothing changed: " + where.base() + " already holds what release " + number + " left; it stays at release "
                        + done.number()
                    : "release " + done.number() + ": rolled back to release " + number + ", " + done.changes().size() + " change(s)");
                out.flush();
                return ExitCodes.OK;
            } catch (NoSuchReleaseException | ReleaseConflictException e) {
                throw new CliExit(ExitCodes.NOT_ACQUIRED, e.getMessage());
            }
        }
    }
}
