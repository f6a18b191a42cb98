package dev.baton.test;

import dev.baton.test.Nemesis.Fault;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.function.BooleanSupplier;

/**
 * A {@link Nemesis}'s choice of the next fault, of how long it lasts and of the quiet before it,
 * every draw from the nemesis's seeded {@link Random} (which the faults draw their targets from
 * too, so the order of draws is the schedule: the same seed, the same faults).
 *
 * <p>The first {@code minimum} rounds each hold every kind once, shuffled by the seed; after them
 * the kind insisted on comes back while the run still lacks what it is for, and otherwise any
 * kind is drawn at random.
 */
final class FaultSchedule {
    private final Random random;
    private final List<Fault> kinds;
    private final int minimum;
    /** The kind drawn every time after the guaranteed rounds while {@link #insistedDone} is false; null: none. */
    private final Fault insisted;
    private final BooleanSupplier insistedDone;
    private final Duration minQuiet;
    private final Duration maxQuiet;
    private final Duration minFault;
    private final Duration maxFault;
    /** The faults still to inject in the current round of the guaranteed schedule. */
    private final List<Fault> round = new ArrayList<>();
    private int rounds;

    /**
     * The schedule {@code b} asks for, over {@code kinds}: those of its faults that can be injected here.
     *
     * @throws IllegalArgumentException if {@code b} insists on a kind that is not among {@code kinds}
     */
    FaultSchedule(Nemesis.Builder b, Random random, List<Fault> kinds) {
        this.random = random;
        this.kinds = List.copyOf(kinds);
        this.minimum = b.minimum;
        this.insisted = b.insisted;
        this.insistedDone = b.insistedDone;
        this.minQuiet = b.minQuiet;
        this.maxQuiet = b.maxQuiet;
        this.minFault = b.minFault;
        this.maxFault = b.maxFault;
        if (insisted != null && !kinds.contains(insisted)) {
            throw new IllegalArgumentException("the nemesis was told to insist on " + insisted + ", which is not among the faults"
                + " it can inject here: " + kinds);
        }
    }

    /** {@return the kinds the schedule draws from} */
    List<Fault> kinds() {
        return kinds;
    }

    /** {@return how many times each kind is guaranteed} */
    int minimum() {
        return minimum;
    }

    /** {@return the quiet before the next fault, drawn} */
    Duration quiet() {
        return between(minQuiet, maxQuiet);
    }

    /** {@return how long the next fault lasts, drawn} */
    Duration faultLength() {
        return between(minFault, maxFault);
    }

    /**
     * The next fault: during the first {@code minimum} rounds, the rest of the current round (each
     * round every kind once, shuffled by the seed); after them the kind insisted on while the run
     * still lacks what it is for ({@link Nemesis.Builder#insistOn}), else any kind at random.
     */
    Fault next() {
        if (rounds < minimum || !round.isEmpty()) {
            if (round.isEmpty()) {
                round.addAll(kinds);
                Collections.shuffle(round, random);
                rounds++;
            }
            return round.remove(round.size() - 1);
        }
        if (insisted != null && !insistedDone.getAsBoolean()) {
            // no draw from the random: the rest of the schedule is the seed's whatever this took
            return insisted;
        }
        return kinds.get(random.nextInt(kinds.size()));
    }

    private Duration between(Duration min, Duration max) {
        long span = max.toMillis() - min.toMillis();
        return min.plusMillis(span <= 0 ? 0 : (long) (random.nextDouble() * span));
    }
}
