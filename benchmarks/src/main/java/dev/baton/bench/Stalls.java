package dev.baton.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A stall meter for a benchmark's tails: a daemon thread asks to sleep 1 ms at a time and records
 * every wake-up that came at least {@link #RECORDED} late, as the interval in which it did not run.
 * A stall it sees is one that any thread of this JVM could have suffered (a safepoint, a GC pause,
 * or no core free on a loaded machine), so a long wait that overlaps one is at least partly the
 * machine's, not the code's. Used by {@link Fairness} to say what another client's long waits are
 * made of.
 */
final class Stalls {
    /** Late wake-ups shorter than this are not recorded. */
    static final long RECORDED = TimeUnit.MILLISECONDS.toNanos(5);

    /** One interval in which the meter thread did not run, on the {@link System#nanoTime()} clock. */
    record Stall(long from, long to) {
        long nanos() {
            return to - from;
        }
    }

    private final List<Stall> stalls = new ArrayList<>();

    private Stalls() {
    }

    /** {@return a meter, running from now until the JVM ends} */
    static Stalls start() {
        Stalls meter = new Stalls();
        Thread thread = new Thread(meter::run, "stall-meter");
        thread.setDaemon(true);
        thread.start();
        return meter;
    }

    private void run() {
        long asked = TimeUnit.MILLISECONDS.toNanos(1);
        while (true) {
            long before = System.nanoTime();
            try {
                TimeUnit.NANOSECONDS.sleep(asked);
            } catch (InterruptedException e) {
                return;
            }
            long after = System.nanoTime();
            if (after - before - asked >= RECORDED) {
                synchronized (this) {
                    stalls.add(new Stall(before + asked, after));
                }
            }
        }
    }

    /** {@return how many nanoseconds of stalls of at least {@code minNanos} lie inside [from, to]} */
    synchronized long stalledWithin(long from, long to, long minNanos) {
        long total = 0;
        for (Stall stall : stalls) {
            if (stall.nanos() >= minNanos) {
                total += Math.max(0, Math.min(to, stall.to()) - Math.max(from, stall.from()));
            }
        }
        return total;
    }
}
