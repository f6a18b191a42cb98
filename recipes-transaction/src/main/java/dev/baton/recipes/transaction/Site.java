package dev.baton.recipes.transaction;

import java.util.Optional;

/**
 * One participant incarnation's progress through one transaction: a state machine with one
 * transition method, driven by what the participant's view of the nodes shows. It decides; the
 * participant does the I/O and the calls into the handler. Not thread-safe: the participant
 * calls it under its lock.
 */
final class Site {
    /** Where this incarnation is with the transaction. */
    enum Phase {
        /** Seen; nothing done yet. */
        NEW,
        /** The handler's prepare is running. */
        PREPARING,
        /** Prepared; the vote is being written (or will be again, after a failed write). */
        VOTING,
        /** The vote is on the servers (written now, or found from an earlier incarnation). */
        VOTED,
        /** The decision was read; the handler is being told. */
        TELLING,
        /** The handler returned; the acknowledgement is being written. */
        TOLD,
        /** Nothing more to do: acknowledged, or the handler failed and the next incarnation will be told again. */
        DONE
    }

    /** What the participant should do next. */
    sealed interface Step {
        /** Nothing now. */
        record Wait() implements Step {
        }

        /** Call the handler's prepare (first checking the servers have no vote of an earlier incarnation). */
        record Prepare() implements Step {
        }

        /** Write the prepared vote. */
        record WriteVote(Vote vote, String reason) implements Step {
        }

        /** Tell the handler the decision read from the decision node. */
        record Tell(Decision decision) implements Step {
        }

        /** Write the acknowledgement. */
        record WriteAck(Outcome outcome) implements Step {
        }
    }

    private static final Step WAIT = new Step.Wait();

    final Transaction tx;
    final String path;
    final String me;
    /** When this incarnation first saw the transaction ({@link System#nanoTime()}): its deadline counts from here. */
    final long firstSeenNanos;
    private Phase phase = Phase.NEW;
    private Vote vote;
    private String reason;
    private Outcome told;
    /** A vote or acknowledgement write is in flight. */
    private boolean writing;
    /** A vote write was sent and not known to have failed: the vote may be on the servers. */
    private boolean voteMayExist;
    private boolean decisionSeen;
    private boolean retentionArmed;

    Site(Transaction tx, String path, String me, long firstSeenNanos) {
        this.tx = tx;
        this.path = path;
        this.me = me;
        this.firstSeenNanos = firstSeenNanos;
    }

    Phase phase() {
        return phase;
    }

    /** The next step, given the transaction's nodes as last seen. */
    Step next(TransactionStatus seen) {
        Optional<Decision> decision = seen.decision();
        decisionSeen |= decision.isPresent();
        return switch (phase) {
            case NEW -> {
                if (seen.acknowledged().contains(me)) {
                    moveTo(Phase.DONE); // an earlier incarnation was told and acknowledged
                    yield WAIT;
                }
                if (decision.isPresent()) {
                    yield tell(decision.get());
                }
                if (seen.votes().containsKey(me)) {
                    moveTo(Phase.VOTED); // an earlier incarnation voted: never prepare twice
                    voteMayExist = true;
                    yield WAIT;
                }
                moveTo(Phase.PREPARING);
                yield new Step.Prepare();
            }
            case VOTING -> {
                if (decision.isPresent()) {
                    yield tell(decision.get()); // decided without this vote: no use writing it
                }
                if (seen.votes().containsKey(me) && !writing) {
                    // the vote on the servers counts: this one's, or an earlier incarnation's that landed
                    // after this one looked (its write was still in flight when it died)
                    moveTo(Phase.VOTED);
                    yield WAIT;
                }
                yield writing ? WAIT : startWrite(new Step.WriteVote(vote, reason));
            }
            case VOTED -> decision.isPresent() ? tell(decision.get()) : WAIT;
            case TOLD -> writing ? WAIT : startWrite(new Step.WriteAck(told));
            case PREPARING, TELLING, DONE -> WAIT;
        };
    }

    /** The handler's prepare returned (or threw: {@code vote} ABORT with the reason). */
    void prepared(Vote v, String why) {
        if (phase == Phase.PREPARING) {
            this.vote = v;
            this.reason = why;
            moveTo(Phase.VOTING);
        }
    }

    /** The check for an earlier vote failed (no connection): start over on the next look. */
    void checkFailed() {
        if (phase == Phase.PREPARING) {
            moveTo(Phase.NEW);
        }
    }

    /** True the first time it is called: the retention timer is armed once per site. */
    boolean armRetentionOnce() {
        boolean first = !retentionArmed;
        retentionArmed = true;
        return first;
    }

    /** A vote found on the servers by the check before prepare: an earlier incarnation's. */
    void foundEarlierVote() {
        if (phase == Phase.PREPARING) {
            voteMayExist = true;
            moveTo(Phase.VOTED);
        }
    }

    /** The vote write ended: landed, refused because the transaction is gone, or failed otherwise (retried on a later look). */
    void voteWritten(boolean landed, boolean transactionGone) {
        writing = false;
        if (landed && phase == Phase.VOTING) {
            moveTo(Phase.VOTED); // not from TELLING: a decision that came while the vote was on its way is already being told
        } else if (transactionGone) {
            voteMayExist = false;
        }
    }

    /** The handler was told; {@code succeeded} false if it threw (then no acknowledgement: the next incarnation is told again). */
    void toldHandler(boolean succeeded) {
        if (phase == Phase.TELLING) {
            moveTo(succeeded ? Phase.TOLD : Phase.DONE);
        }
    }

    /** The acknowledgement write ended. */
    void ackWritten(boolean landed) {
        writing = false;
        if (landed && phase == Phase.TOLD) {
            moveTo(Phase.DONE);
        }
    }

    /** Whether this incarnation prepared and its vote cannot be on the servers. */
    boolean preparedButNeverVoted() {
        return vote != null && !voteMayExist && !decisionSeen;
    }

    /** Whether this incarnation's vote may be on the servers and it never read the decision. */
    boolean votedButNeverTold() {
        return voteMayExist && !decisionSeen;
    }

    private Step tell(Decision decision) {
        told = decision.outcome();
        moveTo(Phase.TELLING);
        return new Step.Tell(decision);
    }

    private Step startWrite(Step write) {
        writing = true;
        if (write instanceof Step.WriteVote) {
            voteMayExist = true;
        }
        return write;
    }

    private void moveTo(Phase next) {
        phase = next;
    }

    @Override
    public String toString() {
        return "Site{" + tx.id() + " " + me + " " + phase + "}";
    }
}
