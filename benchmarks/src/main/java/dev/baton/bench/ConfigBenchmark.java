package dev.baton.bench;

import dev.baton.server.EmbeddedEnsemble;
import java.util.List;

/**
 * The configuration recipes, Baton against the plain ZooKeeper client (the limit) and Curator 5.9.0
 * (the peer), in one JVM on one three-server ensemble with {@code forceSync(true)}:
 *
 * <ol>
 *   <li>Propagation: from the start of a write on one client until each of N watching clients
 *       (N = 1, 10, 50, each on a client of its own) has been told the new value, in ms, p50 and
 *       p99 over every watcher of every round. Baton: a {@code ConfigStore} release of one key
 *       (one transaction with the history entry and the fence), and a plain {@code set}, each
 *       watched by {@code ConfigStore.watchKey} (the writer's own store is started, so a release
 *       starts from its snapshot); Curator: {@code SharedValue.setValue} watched by
 *       {@code SharedValue} listeners, and a {@code setData} watched by {@code NodeCache}
 *       listeners; Baton's own {@code SharedValue} (Curator's node and bytes), written and watched
 *       the same way as Curator's, once as shipped (listeners on each client's event executor)
 *       and once with its watchers' clients built with {@code eventExecutor(Runnable::run)}
 *       (listeners in place on ZooKeeper's event thread, as Curator's: not Baton's default
 *       contract, a measure of the hand-off); raw: a {@code setData} watched by the hand-written watcher that reads again
 *       with a new watch on each event; raw release-shaped: the release's transaction on the plain
 *       client, each watcher reading the key and the fence in one multi of reads on the key's event (see
 *       {@link ReleaseFloors}); and four other layouts' floors in the same style
 *       ({@link ReleaseFloors.Layout}), to tell which layout change could bring a release to
 *       {@code SharedValue}: (a) the fence outside the watched subtree (the history folder's own
 *       data), so a watcher is told of the key alone, one event per release; (b) the current
 *       layout without the deletion of the oldest history entry (a transaction of three); (c)
 *       both; (d) the history in ten slots made once, each release setting the data of its slot
 *       (no create, no delete), the fence outside; and (0), the current layout again, their
 *       control. The release and the {@code set} each have a store (a base path) of their own, as
 *       each Curator way has its own node. Rounds alternate between the thirteen ways: the first eight
 *       in a fixed order, then the five floors in a new order each round (seeded), since the way
 *       that follows {@code NodeCache}'s rounds — the raw release-shaped row — comes out slower
 *       for it: compare the floors with (0), not with that row. Before all rows, 300 rounds of
 *       each way with one watcher compile the code; then in each row the first ten are warm-up.
 *       Each row also gives its p99 over the raw one's and over {@code SharedValue}'s; each N,
 *       Baton's release, {@code set} and two {@code SharedValue} rows' p50 and p99 over Curator's
 *       {@code SharedValue}'s, the release's p50 and p99 over the raw release-shaped row's and over the control's, and each
 *       floor's p50 and p99 over {@code SharedValue}'s.</li>
 *   <li>Cached reads, ns/op, one thread: {@code ConfigStore.getString} and {@code get}, against
 *       Curator's {@code SharedValue.getValue()} and {@code NodeCache.getCurrentData().getData()}
 *       (hand-rolled loop as in the discovery benchmark: 1024 calls between clock reads, 2 s of
 *       warm-up, then ten alternating 200 ms batches each, median); for scale, what one blocking
 *       {@code getData} round trip costs on the plain client.</li>
 *   <li>{@code DistributedAtomicLong.increment()} with 8 clients contending for one counter, each
 *       on its own client and thread, optimistic only, retried without pause: increments/s over
 *       4 s, three alternating runs per side, median; raw: the same 8-byte counter read with
 *       its version and written back at it, in a loop.</li>
 * </ol>
 *
 * <p>First, the requests each way sends per propagation and the watch events the servers send
 * for it, as the servers count them.
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar config [rounds] [--propagation|--requests] [--shuffle-all]}
 * (default 200 propagation rounds per N, so that a p99 is not the slowest of a few rounds; {@code --propagation}: only the request counts and the
 * propagation; {@code --requests}: only the request counts; {@code --shuffle-all}: every way of the propagation, not only
 * the floors, in a new order each round — no row then owes its time to the one before it, but the rows are not those of
 * runs without it).
 *
 * <p>The parts: {@link ConfigRequests}, {@link ConfigPropagation} (its ways to write and watch:
 * {@link PropagationSides} and {@link ReleaseFloors}), {@link ConfigCachedReads} and
 * {@link ConfigIncrements}. Methods that call Curator declare {@code Exception}, because Curator's
 * methods do.
 */
public final class ConfigBenchmark {
    private static final int REQUEST_ROUNDS = 20;

    private ConfigBenchmark() {
    }

    /**
     * The command line after {@code config}.
     *
     * @param rounds propagation rounds per N (the first argument, else 200)
     * @param all {@code false} with {@code --propagation}: only the request counts and the propagation (the rest takes a minute more)
     * @param requestsOnly {@code --requests}: only the request counts
     * @param firstShuffled {@code --shuffle-all}: from the first way, else from the floors on, the ways go in a new order each round
     */
    record Options(int rounds, boolean all, boolean requestsOnly, int firstShuffled) {
        static Options parse(String[] args) {
            List<String> words = List.of(args);
            return new Options(args.length > 0 ? Integer.parseInt(args[0]) : 200, !words.contains("--propagation"),
                words.contains("--requests"), words.contains("--shuffle-all") ? 0 : PropagationSides.FIRST_FLOOR);
        }
    }

    public static void main(String[] args) throws Exception {
        Options options = Options.parse(args);
        try (EmbeddedEnsemble ensemble = EmbeddedEnsemble.builder().nodes(3).forceSync(true).build()) {
            ensemble.start();
            String connect = ensemble.connectString();
            ConfigRequests.run(ensemble, REQUEST_ROUNDS);
            if (options.requestsOnly()) {
                return;
            }
            ConfigPropagation.run(connect, options.rounds(), options.firstShuffled());
            if (options.all()) {
                ConfigCachedReads.run(connect);
                ConfigIncrements.run(connect);
            }
        }
    }
}
