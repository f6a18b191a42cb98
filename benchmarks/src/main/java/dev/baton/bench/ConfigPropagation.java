package dev.baton.bench;

import static dev.baton.bench.PropagationSides.BATON_SHARED_IN_PLACE;
import static dev.baton.bench.PropagationSides.BATON_SHARED_VALUE;
import static dev.baton.bench.PropagationSides.RAW;
import static dev.baton.bench.PropagationSides.RELEASE;
import static dev.baton.bench.PropagationSides.RELEASE_SHAPED;
import static dev.baton.bench.PropagationSides.SET;
import static dev.baton.bench.PropagationSides.SHARED_VALUE;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * The propagation table of the config benchmark: from the start of a write on one client until
 * each of N watching clients has been told the new value, for each of the ways of
 * {@link PropagationSides}, rounds alternating between them; then each row's ratios, Baton's
 * rows (release, {@code set}, its {@code SharedValue} as shipped and in place) over Curator's
 * {@code SharedValue} at p50 and p99, the release over its floors and each floor over
 * {@code SharedValue}.
 */
final class ConfigPropagation {
    private static final int[] WATCHERS = {1, 10, 50};
    private static final int WARMUP_ROUNDS = 10;
    private static final int JIT_WARMUP_ROUNDS = 300;

    private ConfigPropagation() {
    }

    /**
     * Prints the table: {@code rounds} measured rounds per N after the warm-up; the ways from
     * {@code firstShuffled} on go in a new order each round.
     */
    static void run(String connect, int rounds, int firstShuffled) throws Exception {
        System.out.printf("Propagation: from the start of a write until each of N watchers (each on its own client) is told, ms;%n"
            + "p50 and p99 over every watcher of %d rounds per row after %d warm-up rounds (and, before all rows, %d rounds of each way%n"
            + "with one watcher to compile the code); write call: its median alone;%n"
            + "p99/raw and p99/C.SV: p99 over the raw watcher's and over Curator SharedValue's (below 1: sooner);%n"
            + "Baton SharedValue in place: its watchers' clients built with eventExecutor(Runnable::run), listeners on ZooKeeper's%n"
            + "event thread as Curator's are: NOT Baton's default contract (a blocking call in such a listener can hang)%n",
            rounds, WARMUP_ROUNDS, JIT_WARMUP_ROUNDS);
        System.out.printf("%-44s %4s %10s %10s %10s %12s %10s %10s%n", "", "N", "p50", "p99", "max", "write call", "p99/raw",
            "p99/C.SV");
        // first JIT_WARMUP_ROUNDS rounds of each way with one watcher, not reported: a release runs more client code than a
        // setData (JSON, the transaction), and run interpreted it took twice a set's time; the rows compare compiled code
        measure(connect, 1, JIT_WARMUP_ROUNDS, firstShuffled, false);
        for (int n : WATCHERS) {
            measure(connect, n, rounds, firstShuffled, true);
        }
        System.out.println();
    }

    /** One row of each way with {@code n} watchers: {@code measured} rounds after the warm-up, printed if {@code report}. */
    private static void measure(String connect, int n, int measured, int firstShuffled, boolean report) throws Exception {
        try (PropagationSides ways = PropagationSides.connect(connect, n)) {
            String[] paths = {"/bench-raw-" + n, "/bench-config-release-" + n, "/bench-config-set-" + n, "/bench-shared-" + n,
                "/bench-batonshared-" + n, "/bench-batonsharedinplace-" + n, "/bench-node-" + n, "/bench-rawrelease-" + n,
                "/bench-rawfenceout-" + n, "/bench-rawnodelete-" + n, "/bench-rawboth-" + n, "/bench-rawslots-" + n,
                "/bench-rawcontrol-" + n};
            List<PropagationSide> sides = ways.all(paths, "released", "plain");
            List<List<Double>> times = new ArrayList<>();
            sides.forEach(s -> times.add(new ArrayList<>()));
            // the eight first ways keep their order (unless all are shuffled); the layouts' floors after them go in a new
            // order each round, so that none is always the one right after another (the way right after NodeCache's rounds
            // is the slower for it)
            Random shuffle = new Random(11);
            List<Integer> order = new ArrayList<>();
            for (int s = 0; s < sides.size(); s++) {
                order.add(s);
            }
            for (int r = -WARMUP_ROUNDS; r < measured; r++) {
                Collections.shuffle(order.subList(firstShuffled, sides.size()), shuffle);
                for (int s : order) {
                    double[] one = sides.get(s).round(n, "r" + r);
                    if (r >= 0) {
                        for (double t : one) {
                            times.get(s).add(t);
                        }
                    }
                }
            }
            if (report) {
                report(n, sides, times);
            }
        }
    }

    private static void report(int n, List<PropagationSide> sides, List<List<Double>> times) {
        // ratios against the raw limit and Curator's SharedValue: below 1 means faster
        Stats raw = Stats.of(times.get(RAW));
        Stats curator = Stats.of(times.get(SHARED_VALUE));
        for (int s = 0; s < sides.size(); s++) {
            Stats st = Stats.of(times.get(s));
            System.out.printf("%-44s %4d %10.2f %10.2f %10.2f %12.2f %10.2f %10.2f%n", sides.get(s).name, n, st.median(),
                st.percentile(99), st.max(), Stats.of(sides.get(s).writeMs).median(), st.percentile(99) / raw.percentile(99),
                st.percentile(99) / curator.percentile(99));
        }
        // Baton's rows against Curator's SharedValue, p50 and p99 (the columns' own)
        int[] batonRows = {RELEASE, SET, BATON_SHARED_VALUE, BATON_SHARED_IN_PLACE};
        String[] labels = {"Baton release", "Baton set", "Baton SharedValue", "Baton SV in place (not default)"};
        for (int b = 0; b < batonRows.length; b++) {
            Stats st = Stats.of(times.get(batonRows[b]));
            System.out.printf("%-44s %4d %10.2f %10.2f%n", labels[b] + " over C.SV", n,
                st.median() / curator.median(), st.percentile(99) / curator.percentile(99));
        }
        // the release against the same transaction and reads on the plain client: what the layout costs itself
        Stats release = Stats.of(times.get(RELEASE));
        Stats floor = Stats.of(times.get(RELEASE_SHAPED));
        System.out.printf("%-44s %4d %10.2f %10.2f%n", "Baton release over the raw release-shaped row", n,
            release.median() / floor.median(), release.percentile(99) / floor.percentile(99));
        // and against the same floor in a fair place (the control, last side): the row after NodeCache's pays for them
        Stats control = Stats.of(times.get(sides.size() - 1));
        System.out.printf("%-44s %4d %10.2f %10.2f%n", "Baton release over the control floor (0)", n,
            release.median() / control.median(), release.percentile(99) / control.percentile(99));
        // each layout's floor against SharedValue: which layout, if any, would leave room for Baton's code
        for (int s = RELEASE_SHAPED; s < sides.size(); s++) {
            Stats st = Stats.of(times.get(s));
            String label = s == RELEASE_SHAPED ? "release-shaped" : sides.get(s).name.substring(4, 7);
            System.out.printf("%-44s %4d %10.2f %10.2f%n", "floor " + label + " over C.SV (p50, p99)", n,
                st.median() / curator.median(), st.percentile(99) / curator.percentile(99));
        }
    }
}
