package dev.baton.cli;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.core.JsonProcessingException;
import dev.baton.framework.BatonClient;
import dev.baton.framework.DataTooLargeException;
import dev.baton.recipes.config.ConfigChange;
import dev.baton.recipes.config.ConfigSnapshot;
import dev.baton.recipes.config.ConfigStore;
import dev.baton.recipes.config.InvalidKeyException;
import dev.baton.recipes.config.NoSuchReleaseException;
import dev.baton.recipes.config.Release;
import dev.baton.recipes.config.ReleaseBuilder;
import dev.baton.recipes.config.ReleaseConflictException;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code baton config get|set|ls|watch|release|history|rollback|import|export}: a configuration
 * store ({@code ConfigStore}) from the shell. STORE is a path if it starts with {@code /}, else
 * {@code /baton/config/STORE}.
 */
@Command(name = "config",
    description = "A configuration store from the shell: keys under STORE (a path, or a name under /baton/config), "
        + "one znode per key; releases change several keys at once, numbered, kept in a history, and can be rolled back.",
    subcommands = {ConfigCommand.Get.class, ConfigCommand.Set.class, ConfigCommand.Ls.class, ConfigCommand.Watch.class,
        ConfigCommand.Publish.class, ConfigCommand.History.class, ConfigCommand.Rollback.class, ConfigCommand.Import.class,
        ConfigCommand.Export.class})
final class ConfigCommand implements Runnable {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw CliExit.needsSubcommand(spec, "config needs a subcommand: get, set, ls, watch, release, history, rollback, import or export");
    }

    /** What every config subcommand shares: the connection, the store, and the subcommand's stdout. */
    static final class Where {
        @Mixin
        ConnectOptions connection;
        @Spec(Spec.Target.MIXEE)
        CommandSpec command;
        @Parameters(index = "0", paramLabel = "STORE", description = "the store: a path, or a name under /baton/config")
        String store;

        PrintWriter out() {
            return command.commandLine().getOut();
        }

        String base() {
            return Names.path("config", store);
        }

        /** A store that has loaded its first snapshot. */
        ConfigStore loaded(BatonClient client) throws InterruptedException {
            ConfigStore s = ConfigStore.builder(client, base()).build();
            s.start();
            if (!s.awaitInitialized(connection.connectTimeout())) {
                s.close();
                throw new CliExit(ExitCodes.UNAVAILABLE, "config store " + base() + " did not load within "
                    + Durations.format(connection.connectTimeout()));
            }
            return s;
        }

        /** A store to write to (writes go to the servers: no snapshot needed). */
        ConfigStore writer(BatonClient client) {
            return ConfigStore.builder(client, base()).build();
        }
    }

    /** A key from the command line: a bad one is a usage error, before connecting. */
    static String key(String key) {
        try {
            return ConfigStore.validateKey(key);
        } catch (InvalidKeyException e) {
            throw new CliExit(ExitCodes.USAGE, e.getMessage());
        }
    }

    static String shown(String value) {
        return value.replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r");
    }

    @Command(name = "get", description = "Print KEY's value (exit 1 if there is no such key).")
    static final class Get implements Callable<Integer> {
        @Mixin
        Where where;
        @Parameters(index = "1", paramLabel = "KEY", description = "the key, a relative path such as db/url")
        String key;
        @Option(names = "--node-version", description = "print the node's version on a second line")
        boolean version;

        @Override
        public Integer call() throws InterruptedException {
            key(key);
            try (BatonClient client = where.connection.connect(); ConfigStore store = where.loaded(client)) {
                var value = store.getVersioned(key)
                    .orElseThrow(() -> new CliExit(ExitCodes.NOT_ACQUIRED, "no key " + key + " in " + where.base()));
                PrintWriter out = where.out();
                out.println(new String(value.value(), UTF_8));
                if (version) {
                    out.println(value.version());
                }
                out.flush();
                return ExitCodes.OK;
            }
        }
    }

    @Command(name = "set",
        description = "Set KEY to VALUE ('-' reads standard input), creating it if needed. Not a release: use 'release' to change several keys at once.")
    static final class Set implements Callable<Integer> {
        @Mixin
        Where where;
        @Parameters(index = "1", paramLabel = "KEY", description = "the key, a relative path such as db/url")
        String key;
        @Parameters(index = "2", paramLabel = "VALUE", description = "its new value (UTF-8 text)")
        String value;

        @Override
        public Integer call() throws InterruptedException, IOException {
            key(key);
            byte[] bytes = "-".equals(value) ? System.in.readAllBytes() : value.getBytes(UTF_8);
            try (BatonClient client = where.connection.connect()) {
                where.writer(client).set(key, bytes);
                return ExitCodes.OK;
            } catch (DataTooLargeException e) {
                throw new CliExit(ExitCodes.USAGE, e.getMessage());
            }
        }
    }

    @Command(name = "ls", description = "List the keys (under PREFIX), with --values as KEY=VALUE.")
    static final class Ls implements Callable<Integer> {
        @Mixin
        Where where;
        @Parameters(index = "1", paramLabel = "PREFIX", arity = "0..1", description = "only this key and the keys under it")
        String prefix;
        @Option(names = "--values", description = "print KEY=VALUE (newlines as \\n)")
        boolean values;

        @Override
        public Integer call() throws InterruptedException {
            if (prefix != null) {
                key(prefix);
            }
            try (BatonClient client = where.connection.connect(); ConfigStore store = where.loaded(client)) {
                ConfigSnapshot s = store.snapshot();
                PrintWriter out = where.out();
                for (String k : prefix == null ? s.keys() : s.keys(prefix)) {
                    out.println(values ? k + "=" + shown(s.getString(k).orElse("")) : k);
                }
                out.flush();
                return ExitCodes.OK;
            }
        }
    }

    @Command(name = "watch",
        description = {"Print the keys (under PREFIX) as KEY=VALUE, then every change as it happens, until Ctrl-C.",
            "A removed key prints as 'KEY (removed)'. Changes that come close together may print as their last value only."})
    static final class Watch implements Callable<Integer> {
        @Mixin
        Where where;
        @Parameters(index = "1", paramLabel = "PREFIX", arity = "0..1", description = "only this key and the keys under it")
        String prefix;

        @Override
        public Integer call() throws InterruptedException {
            if (prefix != null) {
                key(prefix);
            }
            try (Lifetime life = new Lifetime(); BatonClient client = where.connection.connect(); ConfigStore store = where.loaded(client)) {
                PrintWriter out = where.out();
                store.watchPrefix(prefix == null ? "" : prefix, update -> {
                    synchronized (out) {
                        for (ConfigChange c : update.changes()) {
                            out.println(c.removed() ? c.key() + " (removed)" : c.key() + "=" + shown(c.valueAsString().orElse("")));
                        }
                        out.flush();
                    }
                });
                life.awaitStop();
                return ExitCodes.OK;
            }
        }
    }

    @Command(name = "release",
        description = "Publish KEY=VALUE... (and --remove KEY...) as one numbered release: readers see all of it or none.")
    static final class Publish implements Callable<Integer> {
        @Mixin
        Where where;
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
        if (!given.add(key(key))) {
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
        Where where;
        @Option(names = {"-v", "--verbose"}, description = "show each change")
        boolean verbose;

        @Override
        public Integer call() throws InterruptedException {
            try (BatonClient client = where.connection.connect()) {
                PrintWriter out = where.out();
                for (Release r : where.writer(client).history()) {
                    // one line per release: the message's newlines shown as \n, the time always with its milliseconds
                    out.println(r.number() + "  " + TIME.format(r.time()) + "  " + r.changes().size() + " change(s)"
                        + (r.message().isEmpty() ? "" : "  " + shown(r.message())));
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
            return value.map(v -> "'" + shown(new String(v, UTF_8)) + "'").orElse("(none)");
        }
    }

    @Command(name = "rollback",
        description = "Publish a release that puts back every key changed since release N as it was right after N.")
    static final class Rollback implements Callable<Integer> {
        @Mixin
        Where where;
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

    @Command(name = "import",
        description = {"Publish the keys of FILE (.properties, or .json: an object, nested objects joined with '/') as one release.",
            "With --replace, keys of the store that FILE lacks are removed in the same release."})
    static final class Import implements Callable<Integer> {
        @Mixin
        Where where;
        @Parameters(index = "1", paramLabel = "FILE", description = "a .properties or .json file")
        Path file;
        @Option(names = "--format", paramLabel = "FORMAT", description = "properties or json (default: from the file's extension)")
        String format;
        @Option(names = "--replace", description = "also remove the store's keys that FILE does not have")
        boolean replace;
        @Option(names = {"-m", "--message"}, paramLabel = "TEXT", description = "kept in the history (default: 'import FILE')")
        String message;

        @Override
        public Integer call() throws InterruptedException, IOException {
            if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
                throw new CliExit(ExitCodes.USAGE, "cannot read " + file + ": "
                    + (Files.isDirectory(file) ? "it is a directory" : Files.exists(file) ? "not a readable file" : "no such file"));
            }
            String kind = formatOf(format, file);
            String text;
            try {
                text = Files.readString(file, UTF_8);
            } catch (IOException e) {
                throw new CliExit(ExitCodes.USAGE, "cannot read " + file + ": " + e.getMessage());
            }
            Map<String, String> values = read(text, kind);
            values.keySet().forEach(ConfigCommand::key);
            try (BatonClient client = where.connection.connect()) {
                ConfigStore store = replace ? where.loaded(client) : where.writer(client);
                ReleaseBuilder release = store.release().setAll(values).message(message != null ? message : "import " + file.getFileName());
                if (replace) {
                    ConfigSnapshot now = store.snapshot();
                    now.keys().stream().filter(k -> !values.containsKey(k)).forEach(release::remove);
                    release.onlyIfRelease(now.release());
                }
                try {
                    return publish(release, where.base(), where.out());
                } finally {
                    store.close();
                }
            }
        }
    }

    @Command(name = "export",
        description = "Write every key (as of one release) to FILE, or standard output, as .properties or a flat JSON object.")
    static final class Export implements Callable<Integer> {
        @Mixin
        Where where;
        @Parameters(index = "1", paramLabel = "FILE", arity = "0..1", description = "where to write (default: standard output)")
        Path file;
        @Option(names = "--format", paramLabel = "FORMAT",
            description = "properties or json (default: from FILE's extension, else properties)")
        String format;

        @Override
        public Integer call() throws InterruptedException, IOException {
            String kind = format != null || file != null ? formatOf(format, file) : "properties";
            try (BatonClient client = where.connection.connect(); ConfigStore store = where.loaded(client)) {
                String text = write(store.snapshot().asStrings(), kind);
                if (file == null) {
                    PrintWriter out = where.out();
                    out.print(text);
                    out.flush();
                } else {
                    writeWhole(file, text);
                }
                return ExitCodes.OK;
            }
        }
    }

    /** Writes {@code text} to {@code file} whole or not at all: a failed export leaves no half-written file behind. */
    static void writeWhole(Path file, String text) {
        Path dir = file.toAbsolutePath().getParent();
        Path temp = null;
        try {
            temp = Files.createTempFile(dir, "." + file.getFileName() + ".", ".tmp");
            Files.writeString(temp, text, UTF_8);
            Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            String why = e instanceof java.nio.file.NoSuchFileException ? "no such directory " + dir
                : e instanceof java.nio.file.AccessDeniedException ? "permission denied" : e.getMessage();
            throw new CliExit(ExitCodes.USAGE, "cannot write " + file + ": " + why);
        } finally {
            if (temp != null) {
                try {
                    Files.deleteIfExists(temp);
                } catch (IOException ignored) {
                    // the move took it, or it was never written
                }
            }
        }
    }

    static String formatOf(String format, Path file) {
        String kind = format != null ? format : file != null && file.toString().endsWith(".json") ? "json"
            : file != null && file.toString().endsWith(".properties") ? "properties" : null;
        if (kind == null) {
            throw new CliExit(ExitCodes.USAGE, "cannot tell the format of " + file + ": name it .properties or .json, or give --format");
        }
        if (!kind.equals("json") && !kind.equals("properties")) {
            throw new CliExit(ExitCodes.USAGE, "--format must be properties or json, was '" + kind + "'");
        }
        return kind;
    }

    static Map<String, String> read(String text, String kind) throws IOException {
        Map<String, String> out = new TreeMap<>();
        if (kind.equals("properties")) {
            Properties p = new Properties();
            try {
                p.load(new StringReader(text));
            } catch (IllegalArgumentException e) {
                throw new CliExit(ExitCodes.USAGE, "not a .properties file: " + e.getMessage());
            }
            p.stringPropertyNames().forEach(k -> out.put(k, p.getProperty(k)));
            return out;
        }
        JsonNode root;
        try {
            root = JSON.readTree(text);
        } catch (JsonProcessingException e) {
            // Jackson's own message runs over several lines and names a redacted source: one line, with where
            var at = e.getLocation();
            throw new CliExit(ExitCodes.USAGE, "not JSON" + (at == null ? "" : " (line " + at.getLineNr() + ", column " + at.getColumnNr() + ")")
                + ": " + e.getOriginalMessage().lines().findFirst().orElse(""));
        }
        if (root == null || !root.isObject()) {
            throw new CliExit(ExitCodes.USAGE, "the JSON must be an object of keys");
        }
        flatten("", root, out);
        return out;
    }

    private static void flatten(String prefix, JsonNode node, Map<String, String> out) {
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            String key = prefix.isEmpty() ? field.getKey() : prefix + "/" + field.getKey();
            JsonNode value = field.getValue();
            if (value.isObject()) {
                flatten(key, value, out);
            } else {
                out.put(key, value.isTextual() ? value.asText() : value.toString());
            }
        }
    }

    static String write(Map<String, String> values, String kind) throws IOException {
        if (kind.equals("json")) {
            ObjectNode root = JSON.createObjectNode();
            values.forEach(root::put);
            return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n";
        }
        Properties p = new Properties();
        p.putAll(values);
        StringWriter w = new StringWriter();
        p.store(w, null);
        // Properties writes a date comment and no order: keep the sorted lines only
        List<String> lines = new ArrayList<>(w.toString().lines().filter(l -> !l.startsWith("#")).toList());
        lines.sort(null);
        return lines.isEmpty() ? "" : String.join("\n", lines) + "\n";
    }
}
