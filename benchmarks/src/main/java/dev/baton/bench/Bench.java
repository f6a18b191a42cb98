package dev.baton.bench;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Entry point of {@code benchmarks.jar}: {@code java -jar benchmarks/target/benchmarks.jar NAME [ARGS]}.
 *
 * <p>Every benchmark runs Baton side by side with its references in one JVM and one run, and
 * prints ratios, so the numbers compare like with like on whatever machine runs them.
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
    }

    private Bench() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 0 || !BENCHMARKS.containsKey(args[0])) {
            System.err.println("usage: java -jar benchmarks.jar <benchmark> [args]");
            System.err.println("benchmarks: " + String.join(", ", BENCHMARKS.keySet()));
            System.exit(64);
        }
        BENCHMARKS.get(args[0]).run(Arrays.copyOfRange(args, 1, args.length));
    }

    /** A benchmark's {@code main}; those that call Curator inherit its {@code throws Exception}. */
    @FunctionalInterface
    interface BenchmarkMain {
        void run(String[] args) throws Exception;
    }
}
