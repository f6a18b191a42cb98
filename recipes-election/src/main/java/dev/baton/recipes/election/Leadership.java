package dev.baton.recipes.election;

import dev.baton.framework.BatonClient;
import dev.baton.framework.contention.Holding;
import dev.baton.framework.contention.Ticket;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.function.Function;

/**
 * What a latch and a selector share about leading: their line, how a granted node is watched
 * (the owner's {@code LeadershipPolicy}), and the term held now, with the questions asked of it
 * (does it still lead, its token, proclaiming a new id).
 *
 * <p>A term is the {@link Holding} that watches the granted node; it exists exactly while the
 * owner's state says it leads. It is guarded by the owner's own lock (the owning recipe's
 * monitor, which this class locks for its reads), so it changes in the same critical section as
 * the owner's state; the holding's own checks run after leaving that lock.
 */
final class Leadership {
    private final Object owner;
    private final String name;
    private final Line line;
    private final Function<Ticket, Holding> monitor;
    /** Told of each term's start and end; the observer is read per event, so one added later hears the next. */
    private final BatonClient client;
    private final String kind;
    private final String path;

    // guarded by owner
    private Holding term;
    private long termStart;

    /**
     * @param owner the recipe whose monitor guards the term
     * @param name names the participant in messages ("latch p-1 on /path")
     * @param monitor starts watching a granted node under the owner's policy
     */
    public Leadership(Object owner, String name, Line line, Function<Ticket, Holding> monitor) {
        this(owner, name, line, monitor, null, null, null);
    }

    /**
     * @param owner the recipe whose monitor guards the term
     * @param name names the participant in messages ("latch p-1 on /path")
     * @param monitor starts watching a granted node under the owner's policy
     * @param client whose observer hears of terms (null: nobody)
     * @param kind "latch" or "selector", for the observer
     * @param path the election's path, for the observer
     */
    public Leadership(Object owner, String name, Line line, Function<Ticket, Holding> monitor, BatonClient client,
                      String kind, String path) {
        this.client = client;
        this.kind = kind;
        this.path = path;
        this.owner = Objects.requireNonNull(owner, "owner");
        this.name = name;
        this.line = Objects.requireNonNull(line, "line");
        this.monitor = Objects.requireNonNull(monitor, "monitor");
    }

    public Line line() {
        return line;
    }

    public String name() {
        return name;
    }

    /** Starts watching {@code mine}, just granted, under the owner's policy. */
    public Holding monitor(Ticket mine) {
        return monitor.apply(mine);
    }

    /** A term is over (or never began): stops watching its node and deletes it, waiting; see {@link Line#releaseAndWait}. */
    public void giveBack(Holding watch) {
        watch.close();
        line.releaseAndWait(watch.ticket());
    }

    /** The owner starts leading in the term {@code watch} watches. Caller holds the owner's lock. */
    public void begin(Holding watch) {
        term = Objects.requireNonNull(watch, "watch");
        if (client != null) {
            termStart = client.ticker().read();
            client.observer().leadershipGained(kind, path);
        }
    }

    private void ended(boolean lost) {
        if (client != null) {
            client.observer().leadershipEnded(kind, path, client.ticker().read() - termStart, lost);
        }
    }

    /** The owner stops leading; returns the term that ended (null if none). Caller holds the owner's lock. */
    public Holding end() {
        Holding ended = term;
        term = null;
        if (ended != null) {
            ended(false);
        }
        return ended;
    }

    /** Ends the term if {@code which} is still it (a loss reported late finds a newer term or none). Caller holds the owner's lock. */
    public boolean end(Holding which) {
        if (which == null || term != which) {
            return false;
        }
        term = null;
        ended(true);
        return true;
    }

    /** The current term, null while the owner does not lead. Caller holds the owner's lock. */
    public Holding term() {
        return term;
    }

    /** Whether the owner leads now: a term, and its policy's checks (session, connection, lease deadline) pass. */
    public boolean hasLeadership() {
        Holding held;
        synchronized (owner) {
            if (term == null) {
                return false;
            }
            held = term;
        }
        return held.isValid();
    }

    /** The current term's token (its node's czxid) while leading, else {@link LeaderLatch#NO_TOKEN}. */
    public long leadershipToken() {
        Ticket mine = leadingTicket();
        return mine != null && hasLeadership() ? mine.fencingToken() : LeaderLatch.NO_TOKEN;
    }

    /**
     * Publishes {@code id} in the leader's node, without a new election; returns the bytes
     * published, for the owner to keep for its later turns.
     *
     * @throws NotLeaderException if the owner does not lead
     */
    public byte[] proclaim(String id) throws InterruptedException {
        byte[] data = participantData(Objects.requireNonNull(id, "id"));
        Ticket mine = leadingTicket();
        if (mine == null || !hasLeadership()) {
            throw new NotLeaderException(name + " does not lead: only the leader proclaims");
        }
        line.publish(mine, data);
        return data;
    }

    /**
     * A participant id as its node's data (UTF-8); an IllegalArgumentException saying why if it is
     * longer than {@link ElectionBuilder#MAX_PARTICIPANT_ID_BYTES}.
     */
    public static byte[] participantData(String id) {
        byte[] data = id.getBytes(StandardCharsets.UTF_8);
        if (data.length > ElectionBuilder.MAX_PARTICIPANT_ID_BYTES) {
            throw new IllegalArgumentException("participantId is " + data.length + " bytes in UTF-8; at most "
                + ElectionBuilder.MAX_PARTICIPANT_ID_BYTES + " (it is the participant's node data, read whenever the participants are listed)");
        }
        return data;
    }

    /**
     * Throws unless the recipe ({@code kind}: "latch", "selector") was never started; {@code state}
     * is where it is now. A recipe closed before it started is named closed, not started.
     */
    public static void checkNotStarted(String kind, String path, Enum<?> state) {
        if (state.name().equals("CLOSED")) {
            throw new IllegalStateException(kind + " on " + path + " is closed: a closed " + kind
                + " cannot start again; build a new one");
        }
        if (!state.name().equals("LATENT")) {
            throw new IllegalStateException(kind + " on " + path + " was already started (state " + state + ")");
        }
    }

    /**
     * Throws unless the owner's state may go from {@code from} to {@code next}; {@code legal} comes
     * from the owner's exhaustive switch over its own states.
     */
    public static void checkMove(boolean legal, String owner, Enum<?> from, Enum<?> next) {
        if (!legal) {
            throw new IllegalStateException(owner + " cannot go from " + from + " to " + next);
        }
    }

    private Ticket leadingTicket() {
        synchronized (owner) {
            return term != null ? term.ticket() : null;
        }
    }
}
