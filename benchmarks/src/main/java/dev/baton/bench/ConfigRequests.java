package dev.baton.bench;

import dev.baton.server.EmbeddedEnsemble;
import java.util.List;

/**
 * The first table of the config benchmark: the requests each way of {@link PropagationSides}
 * sends per propagation and the watch events the servers send for it, as the servers count them
 * ({@link Requests}): each way in a namespace (first path component) of its own, with one way
 * running at a time, so that the events counted are its own. A transaction counts one write per
 * operation in it.
 */
final class ConfigRequests {
    private static final int WARMUP_ROUNDS = 10;

    private ConfigRequests() {
    }

    /** Prints the table for N = 1 and 10 watchers: {@code rounds} counted rounds of each way after its warm-up. */
    static void run(EmbeddedEnsemble ensemble, int rounds) throws Exception {
        String connect = ensemble.connectString();
        Requests requests = new Requests(ensemble);
        System.out.printf("Requests per propagation (servers' per-namespace counters, %d rounds after warm-up; a transaction counts each of "
            + "its operations)%n",
            rounds);
        System.out.printf("%-44s %4s %14s %14s %14s%n", "", "N", "writes/round", "reads/round", "events/round");
        for (int n : new int[] {1, 10}) {
            try (PropagationSides ways = PropagationSides.connect(connect, n)) {
                String[] names = {"reqraw" + n, "reqrelease" + n, "reqset" + n, "reqshared" + n, "reqbatonshared" + n,
                    "reqbatoninplace" + n, "reqnode" + n, "reqrawrel" + n, "reqfenceout" + n,
                    "reqnodelete" + n, "reqboth" + n, "reqslots" + n, "reqcontrol" + n};
                String[] paths = new String[names.length];
                for (int s = 0; s < names.length; s++) {
                    paths[s] = "/" + names[s];
                }
                List<PropagationSide> sides = ways.all(paths, "k", "k");
                for (int s = 0; s < sides.size(); s++) {
                    for (int r = 0; r < WARMUP_ROUNDS; r++) {
                        sides.get(s).round(n, "w" + r);
                    }
                    // the release's history entries are next to its base, in a namespace of their own
                    String history = names[s] + ".history";
                    Requests.Count before = requests.now(names[s]);
                    Requests.Count beforeHistory = requests.now(history);
                    long beforeEvents = requests.watchEvents();
                    for (int r = 0; r < rounds; r++) {
                        sides.get(s).round(n, "c" + r);
                    }
                    long afterEvents = requests.watchEvents();
                    Requests.Count done = requests.now(names[s]).minus(before);
                    Requests.Count doneHistory = requests.now(history).minus(beforeHistory);
                    System.out.printf("%-44s %4d %14.2f %14.2f %14.2f%n", sides.get(s).name, n,
                        (done.writes() + doneHistory.writes()) / (double) rounds, (done.reads() + doneHistory.reads()) / (double) rounds,
                        (afterEvents - beforeEvents) / (double) rounds);
                }
            }
        }
        System.out.println();
    }
}
