package dev.baton.cli;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.baton.framework.BatonClient;
import dev.baton.recipes.config.ConfigSnapshot;
import dev.baton.recipes.config.ConfigStore;
import dev.baton.recipes.config.ReleaseBuilder;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code baton config import|export}: a configuration store to and from a file, in the formats of
 * {@link ConfigFiles}. An import is one release.
 */
final class ConfigFileCommands {
    private ConfigFileCommands() {
    }

    @Command(name = "import",
        description = {"Publish the keys of FILE (.properties, or .json: an object, nested objects joined with '/') as one release.",
            "With --replace, keys of the store that FILE lacks are removed in the same release."})
    static final class Import implements Callable<Integer> {
        @Mixin
        ConfigStoreOptions where;
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
            String kind = ConfigFiles.formatOf(format, file);
            String text;
            try {
                text = Files.readString(file, UTF_8);
            } catch (IOException e) {
                throw new CliExit(ExitCodes.USAGE, "cannot read " + file + ": " + e.getMessage());
            }
            Map<String, String> values = ConfigFiles.read(text, kind);
            values.keySet().forEach(ConfigStoreOptions::key);
            try (BatonClient client = where.connection.connect()) {
                ConfigStore store = replace ? where.loaded(client) : where.writer(client);
                ReleaseBuilder release = store.release().setAll(values).message(message != null ? message : "import " + file.getFileName());
                if (replace) {
                    ConfigSnapshot now = store.snapshot();
                    now.keys().stream().filter(k -> !values.containsKey(k)).forEach(release::remove);
                    release.onlyIfRelease(now.release());
                }
                try {
                    return ConfigReleaseCommands.publish(release, where.base(), where.out());
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
        ConfigStoreOptions where;
        @Parameters(index = "1", paramLabel = "FILE", arity = "0..1", description = "where to write (default: standard output)")
        Path file;
        @Option(names = "--format", paramLabel = "FORMAT",
            description = "properties or json (default: from FILE's extension, else properties)")
        String format;

        @Override
        public Integer call() throws InterruptedException, IOException {
            String kind = format != null || file != null ? ConfigFiles.formatOf(format, file) : "properties";
            try (BatonClient client = where.connection.connect(); ConfigStore store = where.loaded(client)) {
                String text = ConfigFiles.write(store.snapshot().asStrings(), kind);
                if (file == null) {
                    PrintWriter out = where.out();
                    out.print(text);
                    out.flush();
                } else {
                    ConfigFiles.writeWhole(file, text);
                }
                return ExitCodes.OK;
            }
        }
    }
}
