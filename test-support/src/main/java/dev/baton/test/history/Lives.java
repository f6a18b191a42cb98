package dev.baton.test.history;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The lives of the watched nodes as {@link ServerTruth} has pieced them together from what its
 * observers heard and listed and from the servers' logs: each life found by its path and by its
 * creation zxid, a deletion matched to the latest life of its path created before it, and a
 * deletion known only from a listing (an upper bound for its zxid) made exact by its event or the
 * logs. Not thread-safe: the truth guards it with its monitor.
 */
final class Lives {
    /** The mutable record behind a {@link ServerTruth.Node}. */
    static final class Life {
        final String path;
        long czxid;
        long createdNanos;
        long dzxid;
        long deletedNanos;
        long deletedFloor;
        boolean deletionExact;
        long owner;
        byte[] data;

        Life(String path, long czxid, long createdNanos) {
            this.path = path;
            this.czxid = czxid;
            this.createdNanos = createdNanos;
        }

        ServerTruth.Node snapshot() {
            return new ServerTruth.Node(path, czxid, createdNanos, dzxid, deletedNanos, deletionExact, owner, data, deletedFloor);
        }
    }

    private final Map<String, List<Life>> byPath = new HashMap<>();
    private final Map<Long, List<Life>> byCzxid = new HashMap<>();
    /** Where a disagreement between the observers and the logs is told. */
    private final Consumer<String> note;
    private int inexact;
    private int fromLogs;

    Lives(Consumer<String> note) {
        this.note = note;
    }

    /** Adds a life as given (a truth written down). */
    void add(ServerTruth.Node n) {
        Life life = new Life(n.path(), n.czxid(), n.createdNanos());
        life.dzxid = n.dzxid();
        life.deletedNanos = n.deletedNanos();
        life.deletedFloor = n.deletedNanosFloor();
        life.deletionExact = n.deletionExact();
        life.owner = n.owner();
        life.data = n.data();
        byPath.computeIfAbsent(n.path(), k -> new ArrayList<>()).add(life);
        byCzxid.computeIfAbsent(n.czxid(), k -> new ArrayList<>()).add(life);
    }

    /** A creation heard or listed at {@code nanos} ({@code exactTime}: heard, so an earlier time wins). */
    Life created(String path, long czxid, long nanos, boolean exactTime) {
        // one transaction may create several nodes: a life is its path and its czxid
        Life life = byCzxid.getOrDefault(czxid, List.of()).stream().filter(l -> l.path.equals(path)).findFirst()
            .orElse(null);
        if (life == null) {
            // a deletion heard before the creation (from a faster observer that missed the create)
            for (Life l : byPath.getOrDefault(path, List.of())) {
                if (l.czxid == -1 && l.dzxid > czxid) {
                    life = l;
                    life.czxid = czxid;
                    break;
                }
            }
            if (life == null) {
                life = newLife(path, czxid, nanos);
            }
            byCzxid.computeIfAbsent(czxid, k -> new ArrayList<>()).add(life);
            life.createdNanos = nanos;
        } else if (exactTime && nanos - life.createdNanos < 0) {
            life.createdNanos = nanos;
        }
        return life;
    }

    /** A deletion heard ({@code exact}: its own zxid) or inferred from a listing (a bound) at {@code nanos}. */
    void deleted(String path, long dzxid, long nanos, boolean exact) {
        Life target = endedBy(path, dzxid);
        if (target == null) {
            target = newLife(path, -1, nanos);
        }
        if (target.dzxid == 0) {
            target.dzxid = dzxid;
            target.deletedNanos = nanos;
            target.deletedFloor = exact ? nanos : 0;
            target.deletionExact = exact;
            if (!exact) {
                inexact++;
            }
        } else if (exact && !target.deletionExact) {
            target.dzxid = dzxid;
            target.deletedNanos = nanos;
            target.deletedFloor = nanos;
            target.deletionExact = true;
            inexact--;
        } else if (exact && target.dzxid == dzxid && nanos - target.deletedNanos < 0) {
            target.deletedNanos = nanos;
            target.deletedFloor = nanos;
        }
    }

    /** A creation from the logs: a life the observers missed, or the data and owner they did not read. */
    void loggedCreation(ServerLogs.Change change, long czxid, long upper) {
        int before = byCzxid.getOrDefault(czxid, List.of()).size();
        Life life = created(change.path(), czxid, upper, false);
        if (byCzxid.get(czxid).size() > before) {
            fromLogs++;
        }
        if (life.data == null) {
            life.data = change.data();
        }
        if (life.owner == 0) {
            life.owner = change.owner();
        }
    }

    /** A deletion from the logs: its exact zxid, and the bounds on its time. */
    void loggedDeletion(String path, long dzxid, long upper, long floor) {
        Life target = endedBy(path, dzxid);
        if (target == null) {
            note.accept("the logs delete " + path + " at zxid 0x" + Long.toHexString(dzxid) + ", a node no one saw created");
            target = newLife(path, -1, upper);
        }
        if (target.dzxid == 0 || !target.deletionExact) {
            if (target.dzxid == 0) {
                fromLogs++;
            } else {
                inexact--;
            }
            target.dzxid = dzxid;
            target.deletedNanos = target.deletedNanos == 0 ? upper : Math.min(target.deletedNanos, upper);
            target.deletionExact = true;
        } else if (target.dzxid != dzxid) {
            note.accept("an observer heard " + path + " deleted at zxid 0x" + Long.toHexString(target.dzxid) + ", the logs say 0x"
                + Long.toHexString(dzxid) + "; the logs win");
            target.dzxid = dzxid;
            target.deletedNanos = upper;
        }
        target.deletedFloor = floor;
    }

    /** Lives of ephemeral nodes owned by {@code session} that are still alive. */
    List<Life> ephemeralsOf(long session) {
        List<Life> out = new ArrayList<>();
        byPath.values().forEach(list -> list.stream().filter(l -> l.owner == session && l.dzxid == 0).forEach(out::add));
        return out;
    }

    /** Lives of nodes under {@code parent} (direct children) that are thought alive. */
    List<Life> aliveChildren(String parent) {
        List<Life> out = new ArrayList<>();
        byPath.forEach((path, list) -> {
            if (path.startsWith(parent + "/") && path.indexOf('/', parent.length() + 1) < 0) {
                list.stream().filter(l -> l.dzxid == 0 && l.czxid > 0).forEach(out::add);
            }
        });
        return out;
    }

    /** {@return a snapshot of every life of every path, in no particular order} */
    List<ServerTruth.Node> nodes() {
        List<ServerTruth.Node> out = new ArrayList<>();
        byPath.values().forEach(list -> list.forEach(l -> out.add(l.snapshot())));
        return out;
    }

    /** {@return the first life created at {@code czxid}, if any} */
    Optional<ServerTruth.Node> byCzxid(long czxid) {
        List<Life> created = byCzxid.getOrDefault(czxid, List.of());
        return created.isEmpty() ? Optional.empty() : Optional.of(created.get(0).snapshot());
    }

    /** {@return the lives of {@code path}, oldest creation first} */
    List<ServerTruth.Node> of(String path) {
        List<ServerTruth.Node> out = new ArrayList<>();
        byPath.getOrDefault(path, List.of()).forEach(l -> out.add(l.snapshot()));
        out.sort(Comparator.comparingLong(ServerTruth.Node::czxid));
        return out;
    }

    /** {@return how many deletions are known only by a listing's bound} */
    int inexact() {
        return inexact;
    }

    /** {@return how many creations or deletions the logs supplied} */
    int fromLogs() {
        return fromLogs;
    }

    /** The life a deletion at {@code dzxid} ends: the latest of its path created before it; null if none is known. */
    private Life endedBy(String path, long dzxid) {
        Life target = null;
        for (Life l : byPath.getOrDefault(path, List.of())) {
            if (l.czxid < dzxid && (target == null || l.czxid > target.czxid)) {
                target = l;
            }
        }
        return target;
    }

    private Life newLife(String path, long czxid, long nanos) {
        Life life = new Life(path, czxid, nanos);
        byPath.computeIfAbsent(path, k -> new ArrayList<>()).add(life);
        return life;
    }
}
