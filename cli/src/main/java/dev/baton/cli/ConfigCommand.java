package dev.baton.cli;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.baton.framework.BatonClient;
import dev.baton.framework.DataTooLargeException;
import dev.baton.recipes.config.ConfigChange;
import dev.baton.recipes.config.ConfigSnapshot;
import dev.baton.recipes.config.ConfigStore;
import java.io.IOException;
import java.io.PrintWriter;
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
 *
 * <p>This class holds the subcommands on single keys; what every subcommand shares is in
 * {@link ConfigStoreOptions}, the releases are in {@link ConfigReleaseCommands}, import
 * and export in {@link ConfigFileCommands}, and the file formats they read and write in
 * {@link ConfigFiles}.
 */
@Command(name = "config",
    description = "A configuration store from the shell: keys under STORE (a path, or a name under /baton/config), "
        + "one znode per key; releases change several keys at once, numbered, kept in a history, and can be rolled back.",
    subcommands = {ConfigCommand.Get.class, ConfigCommand.Set.class, ConfigCommand.Ls.class, ConfigCommand.Watch.class,
        ConfigReleaseCommands.Publish.class, ConfigReleaseCommands.History.class, ConfigReleaseCommands.Rollback.class,
        ConfigFileCommands.Import.class, ConfigFileCommands.Export.class})
final class ConfigCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw CliExit.needsSubcommand(spec, "config needs a subcommand: get, set, ls, watch, release, history, rollback, import or export");
    }

    @Command(name = "get", description = "Print KEY's value (exit 1 if there is no such key).")
    static final class Get implements Callable<Integer> {
        @Mixin
        ConfigStoreOptions where;
        @Parameters(index = "1", paramLabel = "KEY", description = "the key, a relative path such as db/url")
        String key;
        @Option(names = "--node-version", description = "print the node's version on a second line")
        boolean version;

        @Override
        public Integer call() throws InterruptedException {
            ConfigStoreOptions.key(key);
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
        ConfigStoreOptions where;
        @Parameters(index = "1", paramLabel = "KEY", description = "the key, a relative path such as db/url")
        String key;
        @Parameters(index = "2", paramLabel = "VALUE", description = "its new value (UTF-8 text)")
        String value;

        @Override
        public Integer call() throws InterruptedException, IOException {
            ConfigStoreOptions.key(key);
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
        ConfigStoreOptions where;
        @Parameters(index = "1", paramLabel = "PREFIX", arity = "0..1", description = "only this key and the keys under it")
        String prefix;
        @Option(names = "--values", description = "print KEY=VALUE (newlines as \\n)")
        boolean values;

        @Override
        public Integer call() throws InterruptedException {
            if (prefix != null) {
                ConfigStoreOptions.key(prefix);
            }
            try (BatonClient client = where.connection.connect(); ConfigStore store = where.loaded(client)) {
                ConfigSnapshot s = store.snapshot();
                PrintWriter out = where.out();
                for (String k : prefix == null ? s.keys() : s.keys(prefix)) {
                    out.println(values ? k + "=" + ConfigStoreOptions.shown(s.getString(k).orElse("")) : k);
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
        ConfigStoreOptions where;
        @Parameters(index = "1", paramLabel = "PREFIX", arity = "0..1", description = "only this key and the keys under it")
        String prefix;

        @Override
        public Integer call() throws InterruptedException {
            if (prefix != null) {
                ConfigStoreOptions.key(prefix);
            }
            try (Lifetime life = new Lifetime(); BatonClient client = where.connection.connect(); ConfigStore store = where.loaded(client)) {
                PrintWriter out = where.out();
                store.watchPrefix(prefix == null ? "" : prefix, update -> {
                    synchronized (out) {
                        for (ConfigChange c : update.changes()) {
                            out.println(c.removed() ? c.key() + " (removed)"
                                : c.key() + "=" + ConfigStoreOptions.shown(c.valueAsString().orElse("")));
                        }
                        out.flush();
                    }
                });
                life.awaitStop();
                return ExitCodes.OK;
            }
        }
    }
}
