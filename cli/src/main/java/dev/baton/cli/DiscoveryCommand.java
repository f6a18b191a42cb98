package dev.baton.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.framework.BatonClient;
import dev.baton.recipes.discovery.ServiceCache;
import dev.baton.recipes.discovery.ServiceDiscovery;
import dev.baton.recipes.discovery.ServiceDiscoveryBuilder;
import dev.baton.recipes.discovery.ServiceInstance;
import dev.baton.recipes.discovery.ServiceInstanceBuilder;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code baton discovery register|list|watch}: service discovery from the shell (Curator-compatible layout). */
@Command(name = "discovery", mixinStandardHelpOptions = true,
    description = "Service discovery from the shell: register an instance while baton runs, list instances, watch a service.",
    subcommands = {DiscoveryCommand.Register.class, DiscoveryCommand.ListInstances.class, DiscoveryCommand.Watch.class})
final class DiscoveryCommand implements Runnable {
    static final String DEFAULT_BASE = "/baton/services";
    private static final ObjectMapper JSON = new ObjectMapper();

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw CliExit.needsSubcommand(spec, "discovery needs a subcommand: register, list or watch");
    }

    /** Options every discovery subcommand shares, and the subcommand's own stdout. */
    static final class Where {
        @Mixin
        ConnectOptions connection;
        @Spec(Spec.Target.MIXEE)
        CommandSpec command;
        @Option(names = "--base-path", defaultValue = DEFAULT_BASE, description = "discovery base path (default ${DEFAULT-VALUE})")
        String basePath;

        /** The stdout of the subcommand this is mixed into. */
        PrintWriter out() {
            return command.commandLine().getOut();
        }

        @SuppressWarnings({"unchecked", "rawtypes"})
        ServiceDiscovery<Map<String, Object>> discovery(BatonClient client, ServiceInstance<Map<String, Object>> self)
            throws InterruptedException {
            ServiceDiscoveryBuilder<Map<String, Object>> builder = (ServiceDiscoveryBuilder) ServiceDiscoveryBuilder.builder(Map.class);
            builder.client(client).basePath(TreeCommands.path(basePath));
            if (self != null) {
                builder.thisInstance(self);
            }
            ServiceDiscovery<Map<String, Object>> discovery = builder.build();
            discovery.start();
            return discovery;
        }
    }

    static String describe(ServiceInstance<?> i) {
        return i.id() + "  " + i.address() + (i.port() == null ? "" : ":" + i.port())
            + (i.zone() == null ? "" : "  zone " + i.zone()) + "  " + i.health()
            + (i.enabled() ? "" : "  disabled") + (i.payload() == null ? "" : "  payload " + i.payload());
    }

    @Command(name = "register", mixinStandardHelpOptions = true,
        description = "Register an instance of NAME and keep it registered (re-registering after session loss) until Ctrl-C.")
    static final class Register implements Callable<Integer> {
        @Mixin
        Where where;
        @Parameters(paramLabel = "NAME")
        String name;
        @Option(names = "--id", description = "instance id (default: generated)")
        String id;
        @Option(names = "--address", defaultValue = "127.0.0.1", description = "default ${DEFAULT-VALUE}")
        String address;
        @Option(names = "--port", required = true)
        int port;
        @Option(names = "--zone")
        String zone;
        @Option(names = "--weight", defaultValue = "1")
        int weight;
        @Option(names = "--payload", description = "a JSON object, e.g. '{\"version\":\"1.4\"}'")
        String payload;

        @Override
        public Integer call() throws InterruptedException {
            ServiceInstanceBuilder<Map<String, Object>> builder = ServiceInstance.<Map<String, Object>>builder();
            try {
                builder.name(name).address(address).port(port).weight(weight);
                if (id != null) {
                    builder.id(id);
                }
                if (zone != null) {
                    builder.zone(zone);
                }
            } catch (IllegalArgumentException e) {
                throw new CliExit(ExitCodes.USAGE, e.getMessage()); // a bad --port, --weight, name or id: the builder says which
            }
            if (payload != null) {
                try {
                    @SuppressWarnings("unchecked")
                    Map<String, Object> parsed = JSON.readValue(payload, Map.class);
                    builder.payload(parsed);
                } catch (Exception e) {
                    throw new CliExit(ExitCodes.USAGE, "--payload is not a JSON object: " + e.getMessage());
                }
            }
            ServiceInstance<Map<String, Object>> self;
            try {
                self = builder.build();
            } catch (IllegalArgumentException e) {
                throw new CliExit(ExitCodes.USAGE, e.getMessage());
            }
            try (Lifetime life = new Lifetime();
                 BatonClient client = where.connection.connect();
                 ServiceDiscovery<Map<String, Object>> discovery = where.discovery(client, self)) {
                PrintWriter out = where.out();
                out.println("registered " + name + "/" + self.id() + " at " + address + ":" + port + "; Ctrl-C to unregister");
                out.flush();
                life.awaitStop();
                return ExitCodes.OK;
            }
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "List services, or the instances of NAME.")
    static final class ListInstances implements Callable<Integer> {
        @Mixin
        Where where;
        @Parameters(paramLabel = "NAME", arity = "0..1")
        String name;

        @Override
        public Integer call() throws InterruptedException {
            PrintWriter out = where.out();
            try (BatonClient client = where.connection.connect();
                 ServiceDiscovery<Map<String, Object>> discovery = where.discovery(client, null)) {
                if (name == null) {
                    List<String> names = new ArrayList<>(discovery.queryForNames());
                    names.sort(null);
                    names.forEach(out::println);
                } else {
                    List<ServiceInstance<Map<String, Object>>> instances = new ArrayList<>(discovery.queryForInstances(name));
                    instances.sort(Comparator.comparing(ServiceInstance::id));
                    instances.forEach(i -> out.println(describe(i)));
                }
                out.flush();
                return ExitCodes.OK;
            }
        }
    }

    @Command(name = "watch", mixinStandardHelpOptions = true,
        description = "Print the instances of NAME now and after every change, until Ctrl-C (or --count changes).")
    static final class Watch implements Callable<Integer> {
        @Mixin
        Where where;
        @Parameters(paramLabel = "NAME")
        String name;
        @Option(names = "--count", defaultValue = "-1", description = "stop after this many changes (default: never)")
        int count;

        @Override
        public Integer call() throws InterruptedException {
            PrintWriter out = where.out();
            try (BatonClient client = where.connection.connect();
                 ServiceDiscovery<Map<String, Object>> discovery = where.discovery(client, null);
                 ServiceCache<Map<String, Object>> cache = discovery.serviceCacheBuilder().name(name).build()) {
                CountDownLatch changes = new CountDownLatch(count < 0 ? Integer.MAX_VALUE : count);
                cache.addListener(() -> {
                    print(out, cache);
                    changes.countDown();
                });
                cache.start();
                cache.awaitLoaded(Duration.ofSeconds(30));
                print(out, cache);
                changes.await();
                return ExitCodes.OK;
            }
        }

        private void print(PrintWriter out, ServiceCache<Map<String, Object>> cache) {
            List<ServiceInstance<Map<String, Object>>> instances = new ArrayList<>(cache.getInstances());
            instances.sort(Comparator.comparing(ServiceInstance::id));
            synchronized (out) {
                out.println(name + ": " + instances.size() + " instance(s)");
                instances.forEach(i -> out.println("  " + describe(i)));
                out.flush();
            }
        }
    }
}
