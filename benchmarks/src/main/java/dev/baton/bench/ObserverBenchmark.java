package dev.baton.bench;

import dev.baton.framework.BatonClient;
import dev.baton.metrics.BatonMetrics;
import dev.baton.recipes.lock.InterProcessMutex;
import dev.baton.server.EmbeddedEnsemble;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.ArrayList;
import java.util.List;

/**
 * What the observation seam costs an uncontended lock cycle: the same acquire+release on a client
 * nobody observes and on one bound to a Micrometer registry ({@code baton-metrics}), one cycle of
 * each in turn (rotating who goes first) so both see the same drift of a shared machine.
 *
 * <p>One in-process server without fsync, so a cycle is as short as it gets and the seam's share
 * of it as large as it gets. The cost with no observer at all, against a build without the seam,
 * is what {@code locks} shows before and after (docs/observability.md).
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar observer [seconds]} (default 20).
 */
public final class ObserverBenchmark {
    private ObserverBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        try (EmbeddedEnsemble ensemble = EmbeddedEnsemble.builder().nodes(1).build()) {
            ensemble.start();
            BatonClient plain = Clients.baton(ensemble.connectString());
            BatonClient observed = Clients.baton(ensemble.connectString());
            try {
                SimpleMeterRegistry registry = new SimpleMeterRegistry();
                BatonMetrics.builder(observed).name("bench", "/bench-observed").build().bindTo(registry);
                InterProcessMutex plainLock = new InterProcessMutex(plain, "/bench-plain");
                InterProcessMutex observedLock = new InterProcessMutex(observed, "/bench-observed");
                List<InterProcessMutex> locks = List.of(plainLock, observedLock);
                for (long end = System.nanoTime() + 3_000_000_000L; System.nanoTime() < end; ) { // warm-up
                    for (InterProcessMutex lock : locks) {
                        lock.acquire();
                        lock.release();
                    }
                }
                List<List<Double>> millis = List.of(new ArrayList<>(), new ArrayList<>());
                long end = System.nanoTime() + seconds * 1_000_000_000L;
                for (int turn = 0; System.nanoTime() < end; turn++) {
                    for (int k = 0; k < 2; k++) {
                        int who = (turn + k) % 2;
                        long start = System.nanoTime();
                        locks.get(who).acquire();
                        locks.get(who).release();
                        millis.get(who).add((System.nanoTime() - start) / 1e6);
                    }
                }
                Stats plainStats = Stats.of(millis.get(0));
                Stats observedStats = Stats.of(millis.get(1));
                double plainRate = rate(millis.get(0));
                double observedRate = rate(millis.get(1));
                System.out.printf("uncontended acquire+release, 1 in-process server, one cycle of each in turn, %d cycles each%n",
                    millis.get(0).size());
                System.out.printf("  %-34s %10s %10s %10s%n", "", "cycles/s", "p50 ms", "p99 ms");
                System.out.printf("  %-34s %10.0f %10.3f %10.3f%n", "no observer", plainRate, plainStats.median(),
                    plainStats.percentile(99));
                System.out.printf("  %-34s %10.0f %10.3f %10.3f   %.3f of no observer%n", "bound to a SimpleMeterRegistry",
                    observedRate, observedStats.median(), observedStats.percentile(99), observedRate / plainRate);
            } finally {
                plain.close();
                observed.close();
            }
        }
    }

    private static double rate(List<Double> millis) {
        return millis.size() / (millis.stream().mapToDouble(Double::doubleValue).sum() / 1e3);
    }
}
