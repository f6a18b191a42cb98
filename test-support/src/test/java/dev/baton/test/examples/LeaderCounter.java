package dev.baton.test.examples;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.baton.framework.BatonClient;
import dev.baton.framework.BatonException;
import dev.baton.framework.NodeExistsException;
import dev.baton.framework.contention.Contention;
import dev.baton.framework.contention.ContentionRule;
import dev.baton.framework.contention.Holding;
import java.time.Duration;

/**
 * A user's own recipe, built on the framework's contention engine: a counter that only its
 * leader writes. The leader reads the counter once when it takes the lead and then counts in
 * memory, writing each new value in a transaction guarded by its leadership node, so a leader
 * that lost its session (frozen, partitioned, expired) cannot overwrite its successor's values.
 *
 * <p>{@link #unfenced} is the canary: the same recipe without the guard, trusting its grant
 * until a write fails. A correct checker must catch it once a leader is frozen past its session.
 */
final class LeaderCounter implements AutoCloseable {
    private final BatonClient client;
    private final String counter;
    private final Contention election;
    private final boolean fenced;
    private Holding holding;
    private long value;

    private LeaderCounter(BatonClient client, String base, boolean fenced) throws InterruptedException {
        this.client = client;
        this.counter = base + "/counter";
        this.election = Contention.of(client, base + "/leader", "lead-", ContentionRule.mutex());
        this.fenced = fenced;
        try {
            client.create().creatingParentsIfNeeded().forPath(counter, "0".getBytes(UTF_8));
        } catch (NodeExistsException e) {
            // another instance made it first
        }
    }

    /** {@return the recipe as meant: every write guarded by the leader's node} */
    static LeaderCounter fenced(BatonClient client, String base) throws InterruptedException {
        return new LeaderCounter(client, base, true);
    }

    /** {@return the canary: writes that trust the grant instead of proving it} */
    static LeaderCounter unfenced(BatonClient client, String base) throws InterruptedException {
        return new LeaderCounter(client, base, false);
    }

    /**
     * Leads, waiting up to {@code timeout} for the current leader to go; on a new lead, reads the counter.
     *
     * @return whether this instance leads now
     */
    synchronized boolean lead(Duration timeout) throws InterruptedException {
        if (holding != null && (!fenced || holding.isValid())) {
            return true;
        }
        resign();
        Holding granted = election.acquireHoldBlocking(new byte[0], timeout);
        if (granted == null) {
            return false;
        }
        if (!granted.isValid()) { // lost on its way to us: the engine's docs ask every caller to check
            granted.delete().exceptionally(e -> null);
            return false;
        }
        holding = granted;
        value = Long.parseLong(new String(client.getData().forPath(counter), UTF_8));
        return true;
    }

    /** {@return the leadership's fencing token, or 0 when not leading} */
    synchronized long token() {
        return holding == null ? 0 : holding.fencingToken();
    }

    /**
     * Adds one, as the leader.
     *
     * @return the new value, acknowledged by the servers
     * @throws IllegalStateException when not leading (the fenced recipe then resigns)
     * @throws BatonException when the write failed; its outcome may be unknown
     */
    synchronized long increment() throws InterruptedException {
        if (holding == null) {
            throw new IllegalStateException("not leading " + counter);
        }
        long next = value + 1;
        byte[] data = Long.toString(next).getBytes(UTF_8);
        if (!fenced) {
            client.setData().forPath(counter, data); // canary: no proof that we still lead
        } else {
            if (!holding.isValid()) {
                String why = holding.lossReason().orElse("lost");
                resign();
                throw new IllegalStateException("no longer leading " + counter + ": " + why);
            }
            try {
                holding.guard(client.transaction()).setData(counter, data).commit();
            } catch (BatonException e) {
                resign(); // fenced out, or the outcome is unknown: the next leader reads the counter again
                throw e;
            }
        }
        value = next;
        return next;
    }

    private void resign() {
        if (holding != null) {
            holding.delete().exceptionally(e -> null); // a lost hold has nothing to give back
            holding = null;
        }
    }

    @Override
    public synchronized void close() {
        resign();
    }
}
