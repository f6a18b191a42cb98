package dev.baton.recipes.config;

import dev.baton.framework.BatonClient;
import dev.baton.framework.NodeData;
import dev.baton.framework.NodeExistsException;
import dev.baton.framework.TransactionBuilder;
import dev.baton.framework.TransactionFailedException;
import dev.baton.framework.cache.SnapshotCache;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.function.Supplier;
import org.apache.zookeeper.KeeperException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes releases: one ZooKeeper transaction per release, guarded by the fence's version.
 *
 * <p>A commit takes the fence, the history and every key it touches from the store's local
 * snapshot (or, without one, after a conflict, or when it removes a key that is missing locally
 * or nested in folders, reads them from the servers: which folders a removal empties depends on
 * their children, which no operation of a transaction can check), asks the validator, then sends one transaction: deletes (deepest first), sets and creates (with the
 * missing folders as containers), the history entry (and the deletion of entries past
 * {@code keep}), checks of keys left out as already at their value, and, last, the fence's new
 * content at the version read. Every node it changes is written at the version it saw, so the
 * history's "before" values are exact even when the local snapshot lagged; a transaction
 * rejected for a version, a node that appeared or one that went is read again and retried (the
 * validator runs again on the new state). The fence is the transaction's last operation so that
 * a {@link dev.baton.framework.cache.SnapshotCache} sees the release whole.
 */
final class Releases {
    private static final Logger LOG = LoggerFactory.getLogger(Releases.class);
    private static final int MAX_ATTEMPTS = 25;
    private static final byte[] EMPTY = new byte[0];
    /** How long a commit waits for its store to show this writer's previous release before reading the servers instead. */
    private static final Duration OWN_RELEASE_WAIT = Duration.ofSeconds(1);

    private final BatonClient client;
    private final Keys keys;
    private final int keep;
    private final ReleaseValidator validator;
    private final Supplier<ConfigSnapshot> latest;
    private final Clock clock;
    private final CatchUp catchUp;
    private final Duration catchUpTimeout;
    private final ReleaseReads reads;
    private final ReleaseTransaction transactions;
    /**
     * This writer's part of every release id: random once, then a counter per commit, so an id is
     * unique across writers without a {@code SecureRandom} draw on each release's path.
     */
    private final String writerId = UUID.randomUUID().toString();
    private final java.util.concurrent.atomic.AtomicLong commits = new java.util.concurrent.atomic.AtomicLong();
    /** The latest release this writer committed. */
    private final java.util.concurrent.atomic.AtomicLong lastCommitted = new java.util.concurrent.atomic.AtomicLong();

    /** Waits until the local snapshot holds a release. */
    @FunctionalInterface
    interface CatchUp {
        /** Whether the local snapshot held release {@code number} or a later one within {@code timeout}. */
        boolean await(long number, Duration timeout) throws InterruptedException;
    }

    Releases(BatonClient client, Keys keys, int keep, ReleaseValidator validator, Supplier<ConfigSnapshot> latest, Clock clock,
             CatchUp catchUp, Duration catchUpTimeout) {
        this.client = client;
        this.keys = keys;
        this.keep = keep;
        this.validator = validator;
        this.latest = latest;
        this.clock = clock;
        this.catchUp = catchUp;
        this.catchUpTimeout = catchUpTimeout;
        this.reads = new ReleaseReads(client, keys);
        this.transactions = new ReleaseTransaction(client, keys, keep);
    }

    /**
     * Every release the history keeps, newest first: the entries in the history folder next to the
     * base, and those a store of the first layout left under the fence (the folder's wins if both
     * have one number).
     */
    List<Release> history() throws InterruptedException {
        return reads.history();
    }

    /**
     * Writes {@code changes} (key to new value, empty to remove) as the next release.
     *
     * @param expected the release the store must be at, if any
     */
    Release commit(Map<String, Optional<byte[]>> changes, String message, OptionalLong expected) throws InterruptedException {
        String id = writerId + "-" + commits.incrementAndGet();
        boolean localTried = false;
        for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
            // first from the local snapshot (no round trip); after a conflict, or if it lags what is expected, from the servers
            if (!localTried) {
                awaitOwnRelease();
            }
            ReleaseState state = localTried ? null : ReleaseState.fromSnapshot(keys, keep, latest.get(), lastCommitted.get(), changes);
            localTried = true;
            if (state == null || (expected.isPresent() && state.current().release() != expected.getAsLong())) {
                state = reads.state(changes);
            }
            if (expected.isPresent() && state.current().release() != expected.getAsLong()) {
                throw new ReleaseConflictException("release of " + keys.base() + " expected the store at release "
                    + expected.getAsLong() + ", but it is at release " + state.current().release());
            }
            List<Release.Change> effective = effective(changes, state);
            if (effective.isEmpty()) {
                // nothing would change: no number is taken and no history entry pushes a real one out (an import of the
                // file the store already holds, a rollback to where it is); the checks make the answer hold at one moment
                if (unchanged(changes, state)) {
                    return new Release(state.current().release(), clock.instant(), message, List.of());
                }
                continue; // a key or the fence moved since the state was taken: read the servers and look again
            }
            if (!state.baseExists()) {
                ensureBase();
            }
            long number = state.current().release() + 1;
            List<String> problems = validate(number, changes, state);
            if (!problems.isEmpty()) {
                if (state.local()) {
                    continue; // a release may have come since this snapshot: refuse only on what the servers hold
                }
                throw new ReleaseRejectedException(keys.base(), number, problems);
            }
            Release release = new Release(number, clock.instant(), message, effective);
            TransactionBuilder tx = transactions.build(release, id, state, changes.keySet());
            try {
                tx.commit();
                return committed(release);
            } catch (TransactionFailedException e) {
                if (reads.committed(id)) {
                    return committed(release); // the reply was lost and the framework's retry found our own work done
                }
                switch (e.code()) {
                    case BADVERSION, NODEEXISTS, NONODE -> LOG.debug("release {} of {} from {} state: {} at {}; reading again (attempt {})",
                        number, keys.base(), state.local() ? "local" : "read", e.code(), e.path(), attempt);
                    case NOTEMPTY -> {
                        String key = keys.keyOf(e.path());
                        if (changes.containsKey(key)) {
                            throw new InvalidKeyException(key, "it has nested keys: remove them in the same release, or first", false);
                        }
                        // a folder the release thought it emptied got a new key meanwhile: read again
                    }
                    default -> throw e;
                }
            }
        }
        throw new ReleaseConflictException("release of " + keys.base() + ": other writers changed its keys through "
            + MAX_ATTEMPTS + " attempts; nothing was written");
    }

    /** Writes a release that puts every key changed after release {@code number} back as it was then. */
    Release rollback(long number) throws InterruptedException {
        for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
            long current = ReleaseCodec.readFence(Async.await(reads.data(keys.fence())).map(NodeData::data).orElse(EMPTY)).release();
            if (number < 0 || number >= current) {
                throw new NoSuchReleaseException("cannot roll " + keys.base() + " back to release " + number + ": it is at release "
                    + current + (number == current ? " already" : ""));
            }
            Map<Long, Release> kept = new HashMap<>();
            history().forEach(r -> kept.put(r.number(), r));
            Map<String, Optional<byte[]>> target = new LinkedHashMap<>();
            for (long n = current; n > number; n--) {
                Release r = kept.get(n);
                if (r == null) {
                    throw new NoSuchReleaseException("cannot roll " + keys.base() + " back to release " + number + ": release " + n
                        + " is no longer in the history (it keeps the last " + keep + " releases)");
                }
                // walking down, the earliest release after `number` that touched a key has the last word
                r.changes().forEach(c -> target.put(c.key(), c.before()));
            }
            try {
                return commit(target, "rollback to release " + number, OptionalLong.of(current));
            } catch (ReleaseConflictException e) {
                LOG.debug("rollback of {} to {}: another release came first; computing it again", keys.base(), number);
            }
        }
        throw new ReleaseConflictException("rollback of " + keys.base() + " to release " + number + ": other releases kept coming through "
            + MAX_ATTEMPTS + " attempts; nothing was written");
    }

    // ---- steps of a commit ----

    private void ensureBase() throws InterruptedException {
        try {
            client.create().creatingParentsIfNeeded().forPath(keys.base());
        } catch (NodeExistsException e) {
            // the usual case
        }
    }

    /**
     * Right after this writer's last commit its own store has heard the release's events (they
     * come before the commit's reply on the one connection) and its read of the changed nodes is
     * on the way: waiting for that answer is less than a round trip, where reading the state from
     * the servers instead is at least one, with several requests. So a writer releasing back to
     * back waits here for its own last release, at most {@link #OWN_RELEASE_WAIT} (a store that
     * cannot read — cut off, or not started — then lets the commit read from the servers, as before).
     */
    private void awaitOwnRelease() throws InterruptedException {
        long mine = lastCommitted.get();
        ConfigSnapshot snapshot = latest.get();
        if (mine > 0 && snapshot != null && snapshot.nodes() != null && snapshot.release() < mine) {
            catchUp.await(mine, OWN_RELEASE_WAIT);
        }
    }

    private static List<Release.Change> effective(Map<String, Optional<byte[]>> changes, ReleaseState state) {
        List<Release.Change> out = new ArrayList<>();
        changes.forEach((key, after) -> {
            NodeData node = state.values().get(key);
            Optional<byte[]> before = node == null ? Optional.empty() : Optional.of(node.data());
            boolean same = before.isPresent() == after.isPresent() && (before.isEmpty() || Arrays.equals(before.get(), after.get()));
            if (!same) {
                out.add(new Release.Change(key, before, after));
            }
        });
        return out;
    }

    /**
     * The validator's problems with the release (none without a validator), judged on the local
     * snapshot once it holds the release {@code state} read, or a later one: the transaction is
     * guarded by that release's fence, so what the validator saw is what the release changes (a
     * later release makes the transaction fail, and the commit starts again). A snapshot from
     * before that release would judge a configuration the servers no longer hold.
     */
    private List<String> validate(long number, Map<String, Optional<byte[]>> changes, ReleaseState state) throws InterruptedException {
        if (validator == null) {
            return List.of();
        }
        ConfigSnapshot now = latest.get();
        if (now == null) {
            throw new IllegalStateException("config store " + keys.base() + " has a validator but has not loaded: start() it "
                + "and awaitInitialized(timeout) before releasing (the validator sees the configuration a release would make)");
        }
        long at = state.current().release();
        if (now.release() < at) {
            if (!catchUp.await(at, catchUpTimeout)) {
                throw new ReleaseConflictException("release of " + keys.base() + ": the servers are at release " + at
                    + " but the local snapshot stayed at release " + latest.get().release() + " for " + catchUpTimeout
                    + " (validationCatchUp); the validator judges only the latest state, so nothing was written");
            }
            now = latest.get();
        }
        ConfigSnapshot result = applied(now, changes);
        List<String> problems = validator.validate(new ReleaseProposal(number, changes, result));
        return problems == null ? List.of() : problems;
    }

    /**
     * Whether the store still holds what {@code state} says of the fence and of every key of
     * {@code changes} that exists: one transaction of version checks (it writes nothing, so
     * watchers hear nothing). A key asked removed that does not exist is taken as read, as a
     * release's removal of it is. True without a request if there is nothing to check.
     */
    private boolean unchanged(Map<String, Optional<byte[]>> changes, ReleaseState state) throws InterruptedException {
        TransactionBuilder tx = client.transaction();
        int checks = 0;
        if (state.fence() != null) {
            tx.check(keys.fence(), state.fence().stat().getVersion());
            checks++;
        }
        for (String key : changes.keySet()) {
            NodeData now = state.values().get(key);
            if (now != null) {
                tx.check(keys.path(key), now.stat().getVersion());
                checks++;
            }
        }
        if (checks == 0) {
            return true;
        }
        try {
            tx.commit();
            return true;
        } catch (TransactionFailedException e) {
            if (e.code() == KeeperException.Code.BADVERSION || e.code() == KeeperException.Code.NONODE) {
                return false;
            }
            throw e;
        }
    }

    /** Remembers the release as this writer's latest: the local snapshot is not used for the next one until it shows it. */
    private Release committed(Release release) {
        lastCommitted.accumulateAndGet(release.number(), Math::max);
        return release;
    }

    /** {@code base} with {@code changes} applied (versions of changed keys unknown: -1). */
    static ConfigSnapshot applied(ConfigSnapshot base, Map<String, Optional<byte[]>> changes) {
        Map<String, ConfigSnapshot.Entry> entries = new HashMap<>(base.entries());
        changes.forEach((key, value) -> {
            if (value.isPresent()) {
                entries.put(key, new ConfigSnapshot.Entry(value.get().clone(), VersionedValue.ABSENT, 0));
            } else {
                entries.remove(key);
            }
        });
        return new ConfigSnapshot(base.base(), base.release(), base.sequence(), entries, base.mapper(), null, base.fence());
    }
}
