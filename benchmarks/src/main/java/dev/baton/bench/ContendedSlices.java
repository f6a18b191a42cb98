package dev.baton.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntFunction;
import java.util.function.Supplier;

/**
 * A crowd of contenders for one lock, each party's in turn (the raw recipe's, Curator's and
 * Baton's), each contender on its own thread: what {@link LockBenchmark} and
 * {@link RwLockBenchmark} measure the same way.
 *
 * <p>A slice starts every contender, lets them run for {@code warmUp}, then counts for
 * {@code length} the turns that began and ended inside that window, each with its wait (from
 * calling acquire to holding, in ms). One uncounted slice of each party comes first; then the
 * parties take turns, who goes first rotating every round, so a drift in the shared machine's
 * speed falls on all of them, and each {@link Tally} keeps the rate of every slice for
 * {@link Tally#medianRatio}.
 *
 * @param threadPrefix the contender threads' names, followed by their index
 * @param kinds how many kinds of wait a turn may count as (a read/write lock's two sides: 2)
 * @param warmUp how long the contenders run before a slice counts
 * @param length how long a slice counts
 */
record ContendedSlices(String threadPrefix, int kinds, Duration warmUp, Duration length) {

    /**
     * Takes or gives back a lock on the calling thread. Throws {@code Exception} because Curator's
     * {@code acquire()} and {@code release()} declare it.
     */
    @FunctionalInterface
    interface Step {
        void run() throws Exception;
    }

    /** One turn of a contender: the kind of wait it counts as ({@code 0} to {@code kinds - 1}), and its two steps. */
    record Turn(int kind, Step acquire, Step release) {
    }

    /** One library's totals over all its counted slices. */
    static final class Tally {
        private long count;
        private long nanos;
        private final List<Double> perSlice = new ArrayList<>();
        private final List<List<Double>> waits = new ArrayList<>();

        private Tally(int kinds) {
            for (int k = 0; k < kinds; k++) {
                waits.add(new ArrayList<>());
            }
        }

        private void add(long sliceCount, long sliceNanos) {
            count += sliceCount;
            nanos += sliceNanos;
            perSlice.add(sliceCount / (sliceNanos / 1e9));
        }

        double perSecond() {
            return count / (nanos / 1e9);
        }

        /** The counted time of all slices, in seconds. */
        double seconds() {
            return nanos / 1e9;
        }

        /** The waits of one kind, in ms. */
        Stats waits(int kind) {
            return Stats.of(waits.get(kind));
        }

        /** The waits of every kind together, in ms. */
        Stats allWaits() {
            List<Double> all = new ArrayList<>();
            waits.forEach(all::addAll);
            return Stats.of(all);
        }

        /** The median over rounds of this tally's rate divided by {@code other}'s in the same round. */
        double medianRatio(Tally other) {
            double[] ratios = new double[Math.min(perSlice.size(), other.perSlice.size())];
            for (int i = 0; i < ratios.length; i++) {
                ratios[i] = perSlice.get(i) / other.perSlice.get(i);
            }
            return Stats.of(ratios).median();
        }
    }

    /**
     * One uncounted slice of each party (round {@code -1}), then {@code rounds} rounds in which
     * every party runs one slice, round {@code i} starting with party {@code i % n}, so each party
     * goes first, second, ... equally often.
     *
     * @param parties each party's contenders for a round, one per thread
     * @return each party's tally, in the order of {@code parties}
     */
    List<Tally> rotate(int rounds, List<IntFunction<List<Supplier<Turn>>>> parties) throws InterruptedException {
        List<Tally> tallies = new ArrayList<>();
        for (IntFunction<List<Supplier<Turn>>> party : parties) {
            tallies.add(new Tally(kinds));
            slice(party.apply(-1), new Tally(kinds));
        }
        int n = parties.size();
        for (int i = 0; i < rounds; i++) {
            for (int k = 0; k < n; k++) {
                int who = (i + k) % n;
                slice(parties.get(who).apply(i), tallies.get(who));
            }
        }
        return tallies;
    }

    /** Every contender on its own thread for one slice; counts what happened after the warm-up. */
    private void slice(List<Supplier<Turn>> contenders, Tally tally) throws InterruptedException {
        AtomicBoolean counting = new AtomicBoolean();
        AtomicBoolean stop = new AtomicBoolean();
        List<Contender> crowd = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < contenders.size(); i++) {
            Contender contender = new Contender(contenders.get(i), counting, stop, kinds);
            crowd.add(contender);
            Thread thread = new Thread(contender, threadPrefix + i);
            threads.add(thread);
            thread.start();
        }
        TimeUnit.NANOSECONDS.sleep(warmUp.toNanos());
        counting.set(true);
        long start = System.nanoTime();
        TimeUnit.NANOSECONDS.sleep(length.toNanos());
        counting.set(false);
        long elapsed = System.nanoTime() - start;
        stop.set(true);
        for (Thread thread : threads) {
            thread.join(TimeUnit.SECONDS.toMillis(60));
        }
        long total = 0;
        for (Contender contender : crowd) {
            total += contender.counted;
            for (int k = 0; k < kinds; k++) {
                tally.waits.get(k).addAll(contender.waits.get(k));
            }
        }
        tally.add(total, elapsed);
    }

    /** One contender's thread for one slice: takes turns until stopped, keeping those inside the counted window. */
    private static final class Contender implements Runnable {
        private final Supplier<Turn> turns;
        private final AtomicBoolean counting;
        private final AtomicBoolean stop;
        private final List<List<Double>> waits = new ArrayList<>();
        private long counted;

        private Contender(Supplier<Turn> turns, AtomicBoolean counting, AtomicBoolean stop, int kinds) {
            this.turns = turns;
            this.counting = counting;
            this.stop = stop;
            for (int k = 0; k < kinds; k++) {
                waits.add(new ArrayList<>());
            }
        }

        @Override
        public void run() {
            try {
                while (!stop.get()) {
                    Turn turn = turns.get();
                    boolean inWindow = counting.get();
                    long start = System.nanoTime();
                    turn.acquire().run();
                    double waited = (System.nanoTime() - start) / 1e6;
                    turn.release().run();
                    // counted only if the window was open both before the acquire and after the release
                    if (inWindow && counting.get()) {
                        counted++;
                        waits.get(turn.kind()).add(waited);
                    }
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
    }
}
