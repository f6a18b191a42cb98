package dev.baton.chaos;

import dev.baton.recipes.discovery.ServiceCache;
import dev.baton.recipes.discovery.ServiceDiscovery;
import dev.baton.recipes.discovery.ServiceDiscoveryBuilder;
import dev.baton.recipes.discovery.ServiceInstance;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.Nemesis.Fault;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Registrants churn (register, unregister, register again) while faults hit them and the
 * watching caches; once the faults end, every cache must converge to exactly the instances that
 * are registered — none lost (re-registration after session loss), none left over.
 */
@Paired
class DiscoveryChaosTest {
    private static final Duration CONVERGE = Duration.ofSeconds(60);

    private static EmbeddedEnsemble ensemble;

    /** The module's shared ensemble (see {@link ChaosRun#childProcessEnsemble()}): not closed here. */
    @BeforeAll
    static void start() {
        ensemble = ChaosRun.childProcessEnsemble();
    }

    @Test
    void cachesConvergeToTheRegisteredInstancesAfterFaults() throws Exception {
        List<ServiceDiscovery<String>> discoveries = new ArrayList<>();
        List<ServiceCache<String>> caches = new ArrayList<>();
        Set<String> registered = ConcurrentHashMap.newKeySet();
        try (ChaosRun run = ChaosRun.builder("discovery", ensemble).faults(Fault.KILL_LEADER, Fault.RESTART_SERVER,
            Fault.CUT_CLIENT, Fault.DELAY_CLIENT, Fault.PAUSE_CLIENT, Fault.EXPIRE_SESSION).watch("/chaos/services").build()) {
            for (int i = 0; i < 5; i++) {
                ServiceDiscovery<String> d = ServiceDiscoveryBuilder.builder(String.class).client(run.client(i))
                    .basePath("/chaos/services").build();
                d.start();
                discoveries.add(d);
            }
            Workers workers = run.workers;
            List<ServiceInstance<String>> instances = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                instances.add(ServiceInstance.<String>builder().name("orders").id("r" + i).address("10.0.0." + i).port(8080).build());
            }
            for (int i = 3; i < 5; i++) {
                ServiceCache<String> cache = discoveries.get(i).serviceCacheBuilder().name("orders").build();
                cache.start();
                caches.add(cache);
            }
            workers.start("registrant", 3, i -> {
                ServiceInstance<String> mine = instances.get(i);
                // what the registrant itself believes it has registered decides the next step
                if (discoveries.get(i).registeredInstances().isEmpty()) {
                    discoveries.get(i).registerService(mine);
                } else {
                    discoveries.get(i).unregisterService(mine);
                }
                workers.pace(Duration.ofMillis(500 + 500L * i));
                return true;
            });
            run.runFaults();
            for (int i = 0; i < 3; i++) {
                discoveries.get(i).registeredInstances().forEach(instance -> registered.add(instance.id()));
            }

            List<String> problems = new ArrayList<>();
            for (int c = 0; c < caches.size(); c++) {
                ServiceCache<String> cache = caches.get(c);
                try {
                    await().atMost(CONVERGE).until(() -> ids(cache).equals(new TreeSet<>(registered)));
                } catch (ConditionTimeoutException e) {
                    problems.add("cache " + c + " shows " + ids(cache) + " but registered are " + new TreeSet<>(registered));
                }
            }
            Set<String> onServers = discoveries.get(4).queryForInstances("orders").stream()
                .map(ServiceInstance::id).collect(Collectors.toCollection(TreeSet::new));
            if (!onServers.equals(new TreeSet<>(registered))) {
                problems.add("the servers hold " + onServers + " but registered are " + new TreeSet<>(registered));
            }
            run.verdict(workers.operations.get(), Map.of("caches converge to the registrations", problems));
        } finally {
            caches.forEach(ServiceCache::close);
            discoveries.forEach(ServiceDiscovery::close);
        }
    }

    private static Set<String> ids(ServiceCache<String> cache) {
        return cache.getInstances().stream().map(ServiceInstance::id).collect(Collectors.toCollection(TreeSet::new));
    }
}
