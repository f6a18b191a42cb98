package dev.baton.test.history;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The ids a fleet of allocators handed out, recorded by the threads that received them, and the
 * checks of what a unique-id allocator promises: no id handed out twice, each thread's ids
 * increasing, and — for strictly monotonic calls — real-time order across the whole cluster (a
 * call that began after another returned got larger ids).
 *
 * <p>Each thread records through its own {@link Actor} (not shared: no lock on the hot path); ids
 * are kept in primitive arrays, so a run can record millions. Record an id only once the call
 * that handed it out has returned it; an id a failed call may have reserved is never recorded,
 * since no one received it. Run the checks once the recording threads have finished.
 *
 * <pre>{@code
 * IdHistory history = new IdHistory();
 * IdHistory.Actor me = history.actor("client-3/thread-1");
 * me.handedOut(allocator.next());
 * ...
 * history.uniqueness().assertOk();
 * }</pre>
 */
public final class IdHistory {
    private final List<Actor> actors = new CopyOnWriteArrayList<>();

    /**
     * A recorder for one thread (or one sequential worker): ids it received, in the order it received them.
     *
     * @param name who receives the ids, as the verdicts name it ({@code client-3/thread-1})
     * @return the actor's recorder
     */
    public Actor actor(String name) {
        Actor actor = new Actor(Objects.requireNonNull(name, "name"));
        actors.add(actor);
        return actor;
    }

    /**
     * How many ids were recorded.
     *
     * @return the ids recorded by every actor
     */
    public long size() {
        return actors.stream().mapToLong(a -> a.ids.size).sum();
    }

    /**
     * No id was handed out twice, to the same actor or to two.
     *
     * @return one violation per id handed out more than once, naming every actor that received it
     */
    public Verdict uniqueness() {
        long[] all = new long[Math.toIntExact(size())];
        int n = 0;
        for (Actor a : actors) {
            System.arraycopy(a.ids.values, 0, all, n, a.ids.size);
            n += a.ids.size;
        }
        Arrays.sort(all);
        Map<Long, List<String>> twice = new TreeMap<>();
        for (int i = 1; i < all.length; i++) {
            if (all[i] == all[i - 1]) {
                twice.putIfAbsent(all[i], new ArrayList<>());
            }
        }
        // one pass over the recordings names the holders of every duplicate (a broken allocator makes thousands)
        for (Actor a : actors) {
            for (int i = 0; i < a.ids.size; i++) {
                List<String> holders = twice.get(a.ids.values[i]);
                if (holders != null) {
                    holders.add(a.name);
                }
            }
        }
        List<String> violations = new ArrayList<>();
        twice.forEach((id, holders) -> violations.add("id " + id + " was handed out to " + holders));
        return new Verdict("every id handed out once", all.length, violations);
    }

    /**
     * Each actor's ids increase in the order it received them (one allocator hands out increasing ids).
     *
     * @return one violation per id received after a larger or equal one
     */
    public Verdict actorsIncrease() {
        List<String> violations = new ArrayList<>();
        for (Actor a : actors) {
            for (int i = 1; i < a.ids.size; i++) {
                if (a.ids.values[i] <= a.ids.values[i - 1]) {
                    violations.add(a.name + " received " + a.ids.values[i] + " after " + a.ids.values[i - 1]);
                }
            }
        }
        return new Verdict("each actor's ids increase", Math.toIntExact(size()), violations);
    }

    /**
     * For strictly monotonic calls ({@link Actor#handedOutStrictly}): a call that began after
     * another call had returned, anywhere, got larger ids than that call.
     *
     * @return one violation per call that got an id not above every id of a call that returned before it began
     */
    public Verdict strictRealTimeOrder() {
        List<Call> calls = new ArrayList<>();
        for (Actor a : actors) {
            calls.addAll(a.strictCalls);
        }
        Call[] byEnd = calls.toArray(Call[]::new);
        Arrays.sort(byEnd, Comparator.comparingLong(Call::endNanos));
        calls.sort(Comparator.comparingLong(Call::startNanos));
        List<String> violations = new ArrayList<>();
        Call largestBefore = null;
        int returned = 0;
        for (Call call : calls) {
            while (returned < byEnd.length && byEnd[returned].endNanos() < call.startNanos()) {
                if (largestBefore == null || byEnd[returned].lastId() > largestBefore.lastId()) {
                    largestBefore = byEnd[returned];
                }
                returned++;
            }
            if (largestBefore != null && call.firstId() <= largestBefore.lastId()) {
                violations.add(call + " began after " + largestBefore + " had returned, yet got id " + call.firstId()
                    + " <= " + largestBefore.lastId());
            }
        }
        return new Verdict("strictly monotonic ids follow real time", calls.size(), violations);
    }

    /**
     * One strictly monotonic call: when it began and returned ({@link System#nanoTime()}) and the ids it got.
     *
     * @param actor who made the call
     * @param startNanos when the call began
     * @param endNanos when it returned
     * @param firstId the smallest id it got
     * @param lastId the largest id it got
     */
    public record Call(String actor, long startNanos, long endNanos, long firstId, long lastId) {
        @Override
        public String toString() {
            return actor + "'s call [" + firstId + ".." + lastId + "]";
        }
    }

    /** One thread's recorder. Not thread-safe: one per thread. */
    public static final class Actor {
        private final String name;
        private final Longs ids = new Longs();
        private final List<Call> strictCalls = new ArrayList<>();

        private Actor(String name) {
            this.name = name;
        }

        /**
         * The actor received {@code id}.
         *
         * @param id the id the allocator returned
         */
        public void handedOut(long id) {
            ids.add(id);
        }

        /**
         * The actor received {@code ids} from a strictly monotonic call that began at
         * {@code startNanos} and returned just now.
         *
         * @param startNanos {@link System#nanoTime()} when the call began
         * @param ids the ids the call returned
         */
        public void handedOutStrictly(long startNanos, long... ids) {
            long end = System.nanoTime();
            if (ids.length == 0) {
                return;
            }
            long first = Long.MAX_VALUE;
            long last = Long.MIN_VALUE;
            for (long id : ids) {
                this.ids.add(id);
                first = Math.min(first, id);
                last = Math.max(last, id);
            }
            strictCalls.add(new Call(name, startNanos, end, first, last));
        }

        /**
         * The actor's name.
         *
         * @return the name given to {@link IdHistory#actor}
         */
        public String name() {
            return name;
        }
    }

    /** A growable array of longs. */
    private static final class Longs {
        private long[] values = new long[1024];
        private int size;

        void add(long v) {
            if (size == values.length) {
                values = Arrays.copyOf(values, size * 2);
            }
            values[size++] = v;
        }
    }
}
