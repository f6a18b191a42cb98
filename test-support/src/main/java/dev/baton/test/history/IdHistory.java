package dev.baton.test.history;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
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

    /** A recorder for one thread (or one sequential worker): ids it received, in the order it received them. */
    public Actor actor(String name) {
        Actor actor = new Actor(Objects.requireNonNull(name, "name"));
        actors.add(actor);
        return actor;
    }

    /** How many ids were recorded. */
    public long size() {
        return actors.stream().mapToLong(a -> a.ids.size).sum();
    }

    /** No id was handed out twice, to the same actor or to two. */
    public Verdict uniqueness() {
        long[] all = new long[Math.toIntExact(size())];
        int n = 0;
        for (Actor a : actors) {
            System.arraycopy(a.ids.values, 0, all, n, a.ids.size);
            n += a.ids.size;
        }
        Arrays.sort(all);
        List<String> violations = new ArrayList<>();
        for (int i = 1; i < all.length; i++) {
            if (all[i] == all[i - 1] && (i == 1 || all[i - 1] != all[i - 2])) {
                violations.add("id " + all[i] + " was handed out to " + holders(all[i]));
            }
        }
        return new Verdict("every id handed out once", all.length, violations);
    }

    /** Each actor's ids increase in the order it received them (one allocator hands out increasing ids). */
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

    private List<String> holders(long id) {
        List<String> who = new ArrayList<>();
        for (Actor a : actors) {
            for (int i = 0; i < a.ids.size; i++) {
                if (a.ids.values[i] == id) {
                    who.add(a.name);
                }
            }
        }
        return who;
    }

    /** One strictly monotonic call: when it began and returned ({@link System#nanoTime()}) and the ids it got. */
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

        /** The actor received {@code id}. */
        public void handedOut(long id) {
            ids.add(id);
        }

        /**
         * The actor received {@code ids} from a strictly monotonic call that began at
         * {@code startNanos} and returned just now.
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
