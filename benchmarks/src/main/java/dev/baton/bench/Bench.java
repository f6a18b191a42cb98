package dev.baton.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Entry point of {@code benchmarks.jar}: {@code java -jar benchmarks/target/benchmarks.jar NAME [ARGS]}.
 *
 * <p>Every benchmark runs Baton side by side with its references in one JVM and one run, and
 * prints ratios, so the numbers compare like with like on whatever machine runs them.
 *
 * <p>{@code --lan 0,0.5ms,2ms} anywhere among the arguments runs the benchmark once per one-way
 * latency, each client behind a delay proxy of its own ({@link Lan}).
 */
public final class Bench {
    private static final Map<String, BenchmarkMain> BENCHMARKS = new LinkedHashMap<>();

    static {
        BENCHMARKS.put("startup", EnsembleStartupBenchmark::main);
        BENCHMARKS.put("framework", FrameworkBenchmark::main);
        BENCHMARKS.put("discovery", DiscoveryBenchmark::main);
        BENCHMARKS.put("queues", QueueBenchmark::main);
        BENCHMARKS.put("locks", LockBenchmark::main);
        BENCHMARKS.put("election", ElectionBenchmark::main);
        BENCHMARKS.put("rwlock", RwLockBenchmark::main);
        BENCHMARKS.put("transactions", TransactionBenchmark::main);
        BENCHMARKS.put("isolated-follower", IsolatedFollowerBenchmark::main);
        BENCHMARKS.put("group", GroupBenchmark::main);
        BENCHMARKS.put("config", ConfigBenchmark::main);
        BENCHMARKS.put("observer", ObserverBenchmark::main);
        BENCHMARKS.put("barrier", BarrierBenchmark::main);
    }

    private Bench() {
    }

    public static void main(String[] args) {
        try {
            run(args);
        } catch (Throwable e) {
            // said here: uncaught, it would reach the default handler that ZooKeeper's in-process servers install, which
            // logs it under org.apache.zookeeper (off in the benchmarks' logging) and exits 1 without a word
            System.err.println("benchmark " + (args.length > 0 ? args[0] : "") + " failed:");
            e.printStackTrace();
            System.exit(70);
        }
    }

    private static void run(String[] args) throws Exception {
        if (args.length == 0 || !BENCHMARKS.containsKey(args[0])) {
            System.err.println("usage: java -jar benchmarks.jar <benchmark> [args]");
            System.err.println("benchmarks: " + String.join(", ", BENCHMARKS.keySet()));
            System.exit(64);
        }
        BenchmarkMain benchmark = BENCHMARKS.get(args[0]);
        List<String> rest = new ArrayList<>(Arrays.asList(args).subList(1, args.length));
        int lan = rest.indexOf("--lan");
        if (lan < 0) {
            benchmark.run(rest.toArray(String[]::new));
            return;
        }
        if (lan + 1 >= rest.size()) {
            System.err.println("--lan expects one-way latencies such as 0,0.5ms,2ms");
            System.exit(64);
        }
        List<Duration> latencies;
        try {
            latencies = Lan.parse(rest.get(lan + 1));
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(64);
            return;
        }
        rest.subList(lan, lan + 2).clear();
        String[] benchmarkArgs = rest.toArray(String[]::new);
        for (Duration latency : latencies) {
            System.out.printf("%n==== %s at %s one way (each client behind its own delay proxy) ====%n", args[0], Lan.format(latency));
            Lan.at(latency, benchmark, benchmarkArgs);
        }
    }

    /** A benchmark's {@code main}; those that call Curator inherit its {@code throws Exception}. */
    @FunctionalInterface
    interface BenchmarkMain {
        void run(String[] args) throws Exception;
    }
}
