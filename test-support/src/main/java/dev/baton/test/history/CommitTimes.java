package dev.baton.test.history;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * When the servers committed what, as far as this machine can tell: the times at which an
 * observer knew the servers had committed up to some zxid give an upper bound on when any zxid
 * at or below it was committed, and the logs' wall-clock times, placed on the
 * {@link System#nanoTime()} line, a lower bound. Not thread-safe: {@link ServerTruth} guards it
 * with its monitor.
 */
final class CommitTimes {
    /** (zxid, time): at that time an observer knew the servers had committed up to that zxid. */
    private final List<long[]> known = new ArrayList<>();
    /** This machine's clocks read together, to place the logs' wall-clock times on the nanoTime line. */
    private final long originNanos = System.nanoTime();
    private final long originWallMillis = System.currentTimeMillis();

    /** Records that at {@code nanos} an observer knew the servers had committed {@code zxid}. */
    void known(long zxid, long nanos) {
        if (zxid > 0) {
            known.add(new long[] {zxid, nanos});
        }
    }

    /** {@return the upper bounds known now, to look zxids up in} */
    Bounds bounds() {
        long[][] bounds = known.toArray(long[][]::new);
        Arrays.sort(bounds, Comparator.comparingLong(b -> b[0]));
        // each time replaced by the earliest among it and those after it
        for (int i = bounds.length - 2; i >= 0; i--) {
            if (bounds[i + 1][1] - bounds[i][1] < 0) {
                bounds[i] = new long[] {bounds[i][0], bounds[i + 1][1]};
            }
        }
        return new Bounds(bounds);
    }

    /** {@return a lower bound on the commit of a transaction the leader proposed at {@code wallMillis}, less the log's millisecond} */
    long floor(long wallMillis) {
        return originNanos + (wallMillis - originWallMillis - 1) * 1_000_000;
    }

    /** The known (zxid, time) pairs sorted by zxid, each time the earliest among it and those after it. */
    static final class Bounds {
        private final long[][] bounds;

        private Bounds(long[][] bounds) {
            this.bounds = bounds;
        }

        /** The earliest time an observer knew the servers had committed {@code zxid} or a later one; now if none did. */
        long upper(long zxid) {
            int lo = 0;
            int hi = bounds.length;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (bounds[mid][0] < zxid) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            return lo < bounds.length ? bounds[lo][1] : System.nanoTime();
        }
    }
}
