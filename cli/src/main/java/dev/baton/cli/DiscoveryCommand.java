package dev.baton.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
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
@Command(name = "discovery",
    description = {"Service discovery from the shell.",
        "Register an instance while baton runs, list instances, watch a service. The layout and JSON are Curator's."},
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
        @Option(names = "--base-path", paramLabel = "PATH", defaultValue = DEFAULT_BASE,
            description = "Where the services are registered (default: ${DEFAULT-VALUE}).")
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
            + (i.enabled() ? "" : "  disabled") + (i.payload() == null ? "" : "  payload " + payloadJson(i.payload()));
    }

    /** The payload as the JSON it was registered with ({@code {"v":1}}), not as a Java map prints ({@code {v=1}}). */
    private static String payloadJson(Object payload) {
        try {
            return JSON.writeValueAsString(payload);
        } catch (JsonProcessingException e) {
            return String.valueOf(payload);
        }
    }

    @Command(name = "register",
        description = {"Register an instance until Ctrl-C.",
            "Register an instance of NAME and keep it registered (again after a session loss) until Ctrl-C or SIGTERM, then "
                + "unregister it."})
    static final class Register implements Callable<Integer> {
        @Mixin
        Where where;
        @Parameters(paramLabel = "NAME", description = "The service.")
        String name;
        @Option(names = "--id", paramLabel = "ID", description = "The instance's id, unique in the service (default: a generated one).")
        String id;
        @Option(names = "--address", paramLabel = "ADDRESS", defaultValue = "127.0.0.1",
            description = "Where callers reach the instance: a host name or IP (default: ${DEFAULT-VALUE}).")
        String address;
        @Option(names = "--port", paramLabel = "PORT", required = true, description = "The instance's port (0 to 65535).")
        int port;
        @Option(names = "--zone", paramLabel = "ZONE",
            description = "The instance's zone (a data centre, a rack); callers can prefer their own (default: none).")
        String zone;
        @Option(names = "--weight", paramLabel = "W", defaultValue = "1",
            description = "The instance's share of calls for weighted strategies, 0 or more (default: ${DEFAULT-VALUE}).")
        int weight;
        @Option(names = "--payload", paramLabel = "JSON", description = "A JSON object stored with the instance, e.g. '{\"version\":\"1.4\"}'.")
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
                } catch (JsonProcessingException e) {
                    // the original message alone: Jackson's own adds a second line about where in its source
                    throw new CliExit(ExitCodes.USAGE, "--payload is not a JSON object: " + e.getOriginalMessage());
                } catch (RuntimeException e) {
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

    @Command(name = "list", description = "List services, or the instances of NAME.")
    static final class ListInstances implements Callable<Integer> {
        @Mixin
        Where where;
        @Parameters(paramLabel = "NAME", arity = "0..1", description = "The service (default: list the services).")
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

    @Command(name = "watch",
        description = {"Print the instances of a service as they change.",
            "Print the instances of NAME now and after every change, until Ctrl-C or --count changes."})
    static final class Watch implements Callable<Integer> {
        @Mixin
        Where where;
        @Parameters(paramLabel = "NAME", description = "The service.")
        String name;
        @Option(names = "--count", paramLabel = "N", defaultValue = "-1", description = "Stop after N changes (default: never).")
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
