package dev.baton.recipes.discovery;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The down-instance policy as a pure function of time: which instance ids are out at a given
 * moment ({@code System.nanoTime()} readings passed in, so tests drive time by hand). Not
 * thread-safe: the provider calls it under its lock.
 */
final class DownInstances {
    /** "No instance comes back": the value of {@link #nextReturn} when none is out. */
    public static final long NEVER = Long.MAX_VALUE;

    private final int threshold;
    private final long windowNanos;
    private final long downNanos;
    private final Map<String, Errors> byId = new HashMap<>();

    /** Errors of one instance: the count since {@code firstAt}, and until when it is out (if it is). */
    private static final class Errors {
        int count;
        long firstAt;
        boolean down;
        long downUntil;
    }

    public DownInstances(DownInstancePolicy policy) {
        Objects.requireNonNull(policy, "policy");
        this.threshold = policy.errorThreshold();
        this.windowNanos = saturatedNanos(policy.errorWindow());
        this.downNanos = saturatedNanos(policy.downTime());
    }

    /** Counts an error of instance {@code id} at {@code now}; returns whether the instance is out after it. */
    public boolean noteError(String id, long now) {
        Errors e = byId.computeIfAbsent(id, k -> new Errors());
        expire(e, now);
        if (e.down) {
            e.downUntil = now + downNanos;
            return true;
        }
        if (e.count == 0 || now - e.firstAt > windowNanos) {
            e.count = 0;
            e.firstAt = now;
        }
        e.count++;
        if (e.count >= threshold) {
            e.down = true;
            e.downUntil = now + downNanos;
            e.count = 0;
        }
        return e.down;
    }

    /** Whether instance {@code id} is out at {@code now}. */
    public boolean isDown(String id, long now) {
        Errors e = byId.get(id);
        if (e == null) {
            return false;
        }
        expire(e, now);
        return e.down;
    }

    /** The ids out at {@code now}; forgets instances with nothing left to remember. */
    public Set<String> down(long now) {
        Set<String> out = new HashSet<>();
        for (Iterator<Map.Entry<String, Errors>> it = byId.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<String, Errors> entry = it.next();
            Errors e = entry.getValue();
            expire(e, now);
            if (e.down) {
                out.add(entry.getKey());
            } else if (e.count == 0 || now - e.firstAt > windowNanos) {
                it.remove();
            }
        }
        return out;
    }

    /** The earliest moment after {@code now} at which an instance out now comes back, or {@link #NEVER}. */
    public long nextReturn(long now) {
        long next = NEVER;
        boolean any = false;
        for (Errors e : byId.values()) {
            expire(e, now);
            if (e.down && (!any || e.downUntil - next < 0)) {
                next = e.downUntil;
                any = true;
            }
        }
        return next;
    }

    private static void expire(Errors e, long now) {
        if (e.down && now - e.downUntil >= 0) {
            e.down = false;
            e.count = 0;
        }
    }

    private static long saturatedNanos(java.time.Duration d) {
        try {
            return d.toNanos();
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE / 4;
        }
    }
}
