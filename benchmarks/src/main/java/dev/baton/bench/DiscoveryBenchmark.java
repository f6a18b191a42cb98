package dev.baton.bench;

import dev.baton.framework.BatonClient;
import dev.baton.recipes.discovery.ProviderStrategy;
import dev.baton.recipes.discovery.RoundRobinStrategy;
import dev.baton.recipes.discovery.ServiceCache;
import dev.baton.recipes.discovery.ServiceCacheListener;
import dev.baton.recipes.discovery.ServiceDiscovery;
import dev.baton.recipes.discovery.ServiceDiscoveryBuilder;
import dev.baton.recipes.discovery.ServiceInstance;
import dev.baton.recipes.discovery.ServiceProvider;
import dev.baton.recipes.discovery.WeightedStrategy;
import dev.baton.recipes.discovery.ZoneAwareStrategy;
import dev.baton.server.EmbeddedEnsemble;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.retry.RetryOneTime;

/**
 * Service discovery, Baton against Curator 5.9.0, in one JVM on one three-server ensemble with
 * {@code forceSync(true)}:
 *
 * <ol>
 *   <li>{@code getInstance()} from the provider's cache with 50 instances, in ns/op, round-robin on
 *       both sides (Curator's default). Both providers read the same 50 instances. Hand-rolled
 *       loop, not JMH: one thread, calls in chunks of 1024 between clock reads, a sink that
 *       consumes every result; after a warm-up, batches of a fixed duration alternate between the
 *       two, and the median batch is reported. Baton's weighted and zone-aware strategies are
 *       measured the same way, for information.</li>
 *   <li>Propagation: from the start of {@code registerService} on one client until a service cache
 *       on another client holds the new instance (the time is taken in the cache's listener), then
 *       the instance is unregistered and the removal awaited. Rounds alternate; the first few are
 *       warm-up.</li>
 * </ol>
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar discovery [rounds]} (default 30).
 *
 * <p>Methods that call Curator declare {@code Exception}, because Curator's discovery methods do.
 */
public final class DiscoveryBenchmark {
    private static final int INSTANCES = 50;
    private static final int WARMUP_ROUNDS = 5;
    private static final long BATCH_NANOS = TimeUnit.MILLISECONDS.toNanos(300);
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static volatile long sink;

    private DiscoveryBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 30;
        try (EmbeddedEnsemble ensemble = EmbeddedEnsemble.builder().nodes(3).forceSync(true).build()) {
            ensemble.start();
            String connect = ensemble.connectString();
            try (BatonClient batonA = connected(connect); BatonClient batonB = connected(connect);
                 CuratorFramework curatorA = curator(connect); CuratorFramework curatorB = curator(connect)) {
                lookup(batonA, batonB, curatorB);
                propagation(rounds, batonA, batonB, curatorA, curatorB);
            }
        }
    }

    // ---- getInstance() ----

    private static void lookup(BatonClient registrantClient, BatonClient batonClient, CuratorFramework curatorClient) throws Exception {
        try (ServiceDiscovery<Object> registrant = discovery(registrantClient, "/bench-lookup");
             ServiceDiscovery<Object> baton = discovery(batonClient, "/bench-lookup");
             org.apache.curator.x.discovery.ServiceDiscovery<Object> curator = curatorDiscovery(curatorClient, "/bench-lookup")) {
            for (int i = 0; i < INSTANCES; i++) {
                registrant.registerService(ServiceInstance.builder().name("lookup").id(String.format("i%02d", i)).address("10.0.0." + i)
                    .port(8000 + i).zone(i % 3 == 0 ? "a" : "b").weight(1 + i % 4).build());
            }
            ServiceProvider<Object> rr = provider(baton, new RoundRobinStrategy<>());
            ServiceProvider<Object> weighted = provider(baton, new WeightedStrategy<>());
            ServiceProvider<Object> zoned = provider(baton, new ZoneAwareStrategy<>("a"));
            try (org.apache.curator.x.discovery.ServiceProvider<Object> curatorRr = curator.serviceProviderBuilder().serviceName("lookup")
                .providerStrategy(new org.apache.curator.x.discovery.strategies.RoundRobinStrategy<>()).build()) {
                curatorRr.start();
                awaitTrue(() -> rr.getAllInstances().size() == INSTANCES && allCurator(curatorRr));

                double[] b = new double[10];
                double[] c = new double[10];
                long warmEnd = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
                while (System.nanoTime() < warmEnd) {
                    loopBaton(rr, BATCH_NANOS);
                    loopCurator(curatorRr, BATCH_NANOS);
                }
                for (int i = 0; i < b.length; i++) {
                    b[i] = loopBaton(rr, BATCH_NANOS);
                    c[i] = loopCurator(curatorRr, BATCH_NANOS);
                }
                double[] w = strategy(weighted);
                double[] z = strategy(zoned);
                Stats sb = Stats.of(b);
                Stats sc = Stats.of(c);
                System.out.printf("getInstance() from the cache, %d instances, 1 thread, ns/op (median of %d x %d ms batches after 3 s warm-up)%n",
                    INSTANCES, b.length, TimeUnit.NANOSECONDS.toMillis(BATCH_NANOS));
                System.out.printf("%-34s %10s %10s %10s%n", "", "median", "min", "max");
                row("Baton   RoundRobinStrategy", sb);
                row("Curator RoundRobinStrategy", sc);
                row("Baton   WeightedStrategy", Stats.of(w));
                row("Baton   ZoneAwareStrategy", Stats.of(z));
                System.out.printf("median ratio Curator/Baton (round-robin): %.1f (above 1 means Baton is faster)%n%n", sc.median() / sb.median());
            }
        }
    }

    private static boolean allCurator(org.apache.curator.x.discovery.ServiceProvider<Object> provider) {
        try {
            return provider.getAllInstances().size() == INSTANCES;
        } catch (Exception e) {
            return false;
        }
    }

    private static ServiceProvider<Object> provider(ServiceDiscovery<Object> discovery, ProviderStrategy<Object> strategy)
        throws InterruptedException {
        ServiceProvider<Object> provider = discovery.serviceProviderBuilder().serviceName("lookup").providerStrategy(strategy).build();
        provider.start();
        return provider;
    }

    private static double[] strategy(ServiceProvider<Object> provider) {
        loopBaton(provider, TimeUnit.SECONDS.toNanos(1));
        double[] ns = new double[5];
        for (int i = 0; i < ns.length; i++) {
            ns[i] = loopBaton(provider, BATCH_NANOS);
        }
        return ns;
    }

    /**
     * ns per getInstance() over about {@code nanos}. {@link #loopCurator} is the same loop on purpose:
     * each keeps its own call site, which sees one provider type only, so the JIT inlines
     * {@code getInstance()} as in real use; a loop shared through a lambda would time the lambda's
     * dispatch too.
     */
    private static double loopBaton(ServiceProvider<Object> provider, long nanos) {
        long acc = 0;
        long calls = 0;
        long start = System.nanoTime();
        long end = start + nanos;
        long now;
        do {
            for (int i = 0; i < 1024; i++) {
                acc += provider.getInstance().port();
            }
            calls += 1024;
            now = System.nanoTime();
        } while (now < end);
        sink += acc;
        return (double) (now - start) / calls;
    }

    private static double loopCurator(org.apache.curator.x.discovery.ServiceProvider<Object> provider, long nanos) throws Exception {
        long acc = 0;
        long calls = 0;
        long start = System.nanoTime();
        long end = start + nanos;
        long now;
        do {
            for (int i = 0; i < 1024; i++) {
                acc += provider.getInstance().getPort();
            }
            calls += 1024;
            now = System.nanoTime();
        } while (now < end);
        sink += acc;
        return (double) (now - start) / calls;
    }

    // ---- propagation ----

    private static void propagation(int rounds, BatonClient batonA, BatonClient batonB, CuratorFramework curatorA,
                                    CuratorFramework curatorB) throws Exception {
        try (ServiceDiscovery<Object> batonRegistrant = discovery(batonA, "/bench-prop-baton");
             ServiceDiscovery<Object> batonReader = discovery(batonB, "/bench-prop-baton");
             org.apache.curator.x.discovery.ServiceDiscovery<Object> curatorRegistrant = curatorDiscovery(curatorA, "/bench-prop-curator");
             org.apache.curator.x.discovery.ServiceDiscovery<Object> curatorReader = curatorDiscovery(curatorB, "/bench-prop-curator");
             org.apache.curator.x.discovery.ServiceCache<Object> curatorCache = curatorReader.serviceCacheBuilder().name("prop").build()) {
            ServiceCache<Object> batonCache = batonReader.serviceCacheBuilder().name("prop").build();
            batonCache.start();
            curatorCache.start();
            double[] b = new double[rounds];
            double[] c = new double[rounds];
            double[] bCall = new double[rounds];
            double[] cCall = new double[rounds];
            for (int r = -WARMUP_ROUNDS; r < rounds; r++) {
                double[] bt = batonRound(batonRegistrant, batonCache, "b" + (r + WARMUP_ROUNDS));
                double[] ct = curatorRound(curatorRegistrant, curatorCache, "c" + (r + WARMUP_ROUNDS));
                if (r >= 0) {
                    b[r] = bt[0];
                    bCall[r] = bt[1];
                    c[r] = ct[0];
                    cCall[r] = ct[1];
                }
            }
            Stats sb = Stats.of(b);
            Stats sc = Stats.of(c);
            System.out.printf("Propagation: registerService() on one client until a service cache on another holds it, ms (%d rounds after %d warm-up; last column: median of the register call alone)%n",
                rounds, WARMUP_ROUNDS);
            System.out.printf("%-34s %10s %10s %10s %10s %16s%n", "", "median", "p90", "min", "max", "register() call");
            System.out.printf("%-34s %10.2f %10.2f %10.2f %10.2f %16.2f%n", "Baton   ServiceCache", sb.median(), sb.percentile(90), sb.min(),
                sb.max(), Stats.of(bCall).median());
            System.out.printf("%-34s %10.2f %10.2f %10.2f %10.2f %16.2f%n", "Curator ServiceCache", sc.median(), sc.percentile(90), sc.min(),
                sc.max(), Stats.of(cCall).median());
            System.out.printf("median ratio Curator/Baton: %.2f (above 1 means Baton propagates faster)%n", sc.median() / sb.median());
        }
    }

    /** {time until the remote cache held it, time the register call took}, in ms. */
    private static double[] batonRound(ServiceDiscovery<Object> registrant, ServiceCache<Object> cache, String id)
        throws InterruptedException {
        AtomicLong seenAt = new AtomicLong();
        ServiceCacheListener listener = () -> {
            if (seenAt.get() == 0 && cache.getInstances().stream().anyMatch(i -> i.id().equals(id))) {
                seenAt.set(System.nanoTime());
            }
        };
        cache.addListener(listener);
        ServiceInstance<Object> instance = ServiceInstance.builder().name("prop").id(id).address("10.0.0.1").port(1).build();
        return timeRound(seenAt, () -> registrant.registerService(instance), () -> {
            cache.removeListener(listener);
            registrant.unregisterService(instance);
            awaitTrue(() -> cache.getInstances().isEmpty());
        });
    }

    private static double[] curatorRound(org.apache.curator.x.discovery.ServiceDiscovery<Object> registrant,
                                       org.apache.curator.x.discovery.ServiceCache<Object> cache, String id) throws Exception {
        AtomicLong seenAt = new AtomicLong();
        org.apache.curator.x.discovery.details.ServiceCacheListener listener = new org.apache.curator.x.discovery.details.ServiceCacheListener() {
            @Override
            public void cacheChanged() {
                if (seenAt.get() == 0 && cache.getInstances().stream().anyMatch(i -> i.getId().equals(id))) {
                    seenAt.set(System.nanoTime());
                }
            }

            @Override
            public void stateChanged(CuratorFramework client, ConnectionState newState) {
                // not measured
            }
        };
        cache.addListener(listener);
        org.apache.curator.x.discovery.ServiceInstance<Object> instance = org.apache.curator.x.discovery.ServiceInstance.builder()
            .name("prop").id(id).address("10.0.0.1").port(1).build();
        return timeRound(seenAt, () -> registrant.registerService(instance), () -> {
            cache.removeListener(listener);
            registrant.unregisterService(instance);
            awaitTrue(() -> cache.getInstances().isEmpty());
        });
    }

    /** A registration or its undoing, with the checked exception its library declares. */
    @FunctionalInterface
    private interface Action<E extends Exception> {
        void run() throws E;
    }

    /**
     * Registers, waits until the listener has set {@code seenAt}, then undoes the registration;
     * returns {time until the remote cache held it, time the register call took}, in ms.
     */
    private static <E extends Exception> double[] timeRound(AtomicLong seenAt, Action<E> register, Action<E> undo) throws E {
        long start = System.nanoTime();
        register.run();
        long returned = System.nanoTime();
        awaitTrue(() -> seenAt.get() != 0);
        undo.run();
        return new double[] {(seenAt.get() - start) / 1e6, (returned - start) / 1e6};
    }

    // ---- set-up ----

    private static BatonClient connected(String connect) throws InterruptedException {
        BatonClient client = BatonClient.builder().connectString(Lan.route(connect)).sessionTimeout(Duration.ofSeconds(30)).build();
        client.start();
        if (!client.blockUntilConnected(WAIT)) {
            throw new IllegalStateException("no connection to " + connect);
        }
        return client;
    }

    private static CuratorFramework curator(String connect) throws InterruptedException {
        CuratorFramework client = CuratorFrameworkFactory.newClient(Lan.route(connect), 30_000, 15_000, new RetryOneTime(100));
        client.start();
        if (!client.blockUntilConnected(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("no connection to " + connect);
        }
        return client;
    }

    private static ServiceDiscovery<Object> discovery(BatonClient client, String basePath) throws InterruptedException {
        ServiceDiscovery<Object> discovery = ServiceDiscoveryBuilder.builder(Object.class).client(client).basePath(basePath).build();
        discovery.start();
        return discovery;
    }

    private static org.apache.curator.x.discovery.ServiceDiscovery<Object> curatorDiscovery(CuratorFramework client, String basePath)
        throws Exception {
        org.apache.curator.x.discovery.ServiceDiscovery<Object> discovery = org.apache.curator.x.discovery.ServiceDiscoveryBuilder
            .builder(Object.class).client(client).basePath(basePath).build();
        discovery.start();
        return discovery;
    }

    /**
     * Checks the condition every 100 µs. Measured times are taken where the event happens (in the
     * cache listener), so how late this loop notices does not count.
     */
    private static void awaitTrue(BooleanSupplier condition) {
        Waits.until(condition, WAIT, 100_000);
    }

    private static void row(String name, Stats s) {
        System.out.printf("%-34s %10.1f %10.1f %10.1f%n", name, s.median(), s.min(), s.max());
    }

}
