package dev.baton.cli;

import dev.baton.framework.BatonClient;
import dev.baton.recipes.config.ConfigStore;
import dev.baton.recipes.config.InvalidKeyException;
import java.io.PrintWriter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * What every {@code baton config} subcommand shares: the connection, the store, and the
 * subcommand's stdout (a picocli mixin); and how a key from the command line is checked and how a
 * value is shown on one line.
 */
final class ConfigStoreOptions {
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

    /** A key from the command line: a bad one is a usage error, before connecting. */
    static String key(String key) {
        try {
            return ConfigStore.validateKey(key);
        } catch (InvalidKeyException e) {
            throw new CliExit(ExitCodes.USAGE, e.getMessage());
        }
    }

    /** {@code value} on one line: backslashes, newlines and carriage returns written as escapes. */
    static String shown(String value) {
        return value.replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r");
    }
}
