package dev.baton.cli;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.baton.framework.BatonClient;
import dev.baton.recipes.group.NameEntry;
import dev.baton.recipes.group.NameLifetime;
import dev.baton.recipes.group.NamingService;
import dev.baton.recipes.group.RegisteredName;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code baton names ls|register|lookup|release}: the naming service from the shell. */
@Command(name = "names",
    description = {"Cluster-unique names under namespaces.",
        "register PREFIX prints a new name, PREFIX and a sequence number (/business/metrics -> "
            + "/business/metrics0000000001); ls NAMESPACE lists the names registered there, oldest first; lookup NAME "
            + "prints its data (exit 1 if none); release NAME frees it. A path that does not start with / is under "
            + "/baton/names/."},
    subcommands = {NamesCommand.Ls.class, NamesCommand.Register.class, NamesCommand.Lookup.class, NamesCommand.Release.class})
final class NamesCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw CliExit.needsSubcommand(spec, "names needs a subcommand: ls, register, lookup or release");
    }

    /** Connection and stdout, shared by every names subcommand. */
    static final class Where {
        @Mixin
        ConnectOptions connection;
        @Spec(Spec.Target.MIXEE)
        CommandSpec command;

        PrintWriter out() {
            return command.commandLine().getOut();
        }
    }

    /** A NAME as the naming service needs it: a bad one is a usage error before connecting. */
    static String name(String name) {
        String path = Names.path("names", name);
        if (!path.matches(".*\\d{10}")) {
            throw new CliExit(ExitCodes.USAGE, "a name ends with a 10-digit sequence number, such as "
                + "/business/metrics0000000001; was '" + name + "'");
        }
        return path;
    }

    @Command(name = "ls", description = "List the names registered in NAMESPACE, oldest first.")
    static final class Ls implements Callable<Integer> {
        @Mixin
        Where where;
        @Parameters(paramLabel = "NAMESPACE", description = "The namespace, e.g. /business.")
        String namespace;

        @Override
        public Integer call() throws InterruptedException {
            // the root is a namespace too: the one of names registered as /PREFIX
            String path = "/".equals(namespace) ? namespace : Names.path("names", namespace);
            try (BatonClient client = where.connection.connect()) {
                PrintWriter out = where.out();
                new NamingService(client).list(path).forEach(out::println);
                out.flush();
                return ExitCodes.OK;
            }
        }
    }

    @Command(name = "register",
        description = {"Register a new name and print it.",
            "The name lasts until released; with --ephemeral, while baton runs (until Ctrl-C or SIGTERM)."})
    static final class Register implements Callable<Integer> {
        @Mixin
        Where where;
        @Parameters(index = "0", paramLabel = "PREFIX", description = "Namespace and prefix, e.g. /business/metrics.")
        String prefix;
        @Parameters(index = "1", arity = "0..1", paramLabel = "DATA", defaultValue = "",
            description = "The name's data ('-' reads standard input; default: none).")
        String data;
        @Option(names = "--ephemeral", description = "Hold the name while baton runs, and release it on exit.")
        boolean ephemeral;

        @Override
        public Integer call() throws InterruptedException, IOException {
            String path = Names.path("names", prefix);
            byte[] bytes = "-".equals(data) ? System.in.readAllBytes() : data.getBytes(UTF_8);
            if (!ephemeral) {
                try (BatonClient client = where.connection.connect()) {
                    print(new NamingService(client).register(path, bytes, NameLifetime.PERSISTENT));
                    return ExitCodes.OK;
                }
            }
            try (Lifetime life = new Lifetime(); BatonClient client = where.connection.connect()) {
                NamingService names = new NamingService(client);
                RegisteredName name = names.register(path, bytes, NameLifetime.EPHEMERAL);
                print(name);
                life.awaitStop();
                names.release(name.name());
                return ExitCodes.OK;
            }
        }

        private void print(RegisteredName name) {
            PrintWriter out = where.out();
            out.println(name.name());
            out.flush();
        }
    }

    @Command(name = "lookup", description = "Print the data of NAME; exit 1 if it is not registered.")
    static final class Lookup implements Callable<Integer> {
        @Mixin
        Where where;
        @Parameters(paramLabel = "NAME", description = "The name, e.g. /business/metrics0000000001.")
        String name;

        @Override
        public Integer call() throws InterruptedException {
            String path = name(name);
            try (BatonClient client = where.connection.connect()) {
                Optional<NameEntry> found = new NamingService(client).lookup(path);
                if (found.isEmpty()) {
                    throw new CliExit(ExitCodes.NOT_ACQUIRED, "no name " + path);
                }
                PrintWriter out = where.out();
                out.println(new String(found.get().data(), UTF_8));
                out.flush();
                return ExitCodes.OK;
            }
        }
    }

    @Command(name = "release", description = "Release NAME (it is never handed out again); exit 1 if it is not registered.")
    static final class Release implements Callable<Integer> {
        @Mixin
        Where where;
        @Parameters(paramLabel = "NAME", description = "The name.")
        String name;

        @Override
        public Integer call() throws InterruptedException {
            String path = name(name);
            try (BatonClient client = where.connection.connect()) {
                if (!new NamingService(client).release(path)) {
                    throw new CliExit(ExitCodes.NOT_ACQUIRED, "no name " + path);
                }
                return ExitCodes.OK;
            }
        }
    }
}
