package dev.baton.recipes.transaction;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The decision a site proposes to record for an undecided transaction, from the votes it read: a
 * pure function, the whole protocol's rule in one place. It is only ever a proposal. The site
 * records it in one ZooKeeper transaction that checks every vote in {@link #relyOn()} is still
 * the node it read and creates the decision node; whichever proposal lands first is the decision,
 * and every site, the proposer included, acts only on what it then reads from that node.
 *
 * @param outcome what to record
 * @param relyOn the participants whose votes the outcome rests on (checked in the same write)
 * @param reason why, in words, for the decision node
 */
record Tally(Outcome outcome, List<String> relyOn, String reason) {
    /** How a reason for an abort vote reads after the participant's id (also {@link Writes#vote}'s). */
    static final String VOTED_ABORT = " voted abort";
    /** How the reason for an abort at the deadline begins. */
    static final String DEADLINE = "deadline of ";

    /**
     * What to record, or empty to keep waiting.
     *
     * <ul>
     *   <li>a participant voted abort: abort, resting on that vote;</li>
     *   <li>every participant voted commit: commit, resting on every vote (also after the
     *       deadline: a commit whose last voter died before recording it is not thrown away);</li>
     *   <li>the deadline passed at this site with votes missing: abort, resting on nothing (an
     *       abort is always allowed while nothing is decided);</li>
     *   <li>otherwise wait.</li>
     * </ul>
     *
     * @param votes the votes read, by participant (votes of ids not in {@code participants} are ignored)
     * @param site who proposes, for the reason ({@code "stock"}, {@code "coordinator"})
     */
    static Optional<Tally> of(Transaction tx, Map<String, Vote> votes, boolean deadlinePassed, String site) {
        List<String> missing = new ArrayList<>();
        for (String p : tx.participants()) {
            Vote v = votes.get(p);
            if (v == Vote.ABORT) {
                return Optional.of(new Tally(Outcome.ABORT, List.of(p), p + VOTED_ABORT + " (recorded by " + site + ")"));
            }
            if (v == null) {
                missing.add(p);
            }
        }
        if (missing.isEmpty()) {
            return Optional.of(new Tally(Outcome.COMMIT, tx.participants(),
                "all " + tx.participants().size() + " participants voted commit (recorded by " + site + ")"));
        }
        if (deadlinePassed) {
            return Optional.of(new Tally(Outcome.ABORT, List.of(), DEADLINE + tx.deadline().toMillis()
                + " ms passed without votes from " + missing + " (recorded by " + site + ")"));
        }
        return Optional.empty();
    }

    Decision decision() {
        return new Decision(outcome, reason);
    }

    /**
     * Why a decision read from its node was made, for {@link dev.baton.framework.BatonObserver}: a
     * fixed set of words, told apart by how this class and {@link Writes#vote} begin a reason (the
     * decision node holds only the outcome and the reason, and its layout stays as it is).
     */
    static String cause(Decision decision) {
        if (decision.isCommit()) {
            return "all-voted-commit";
        }
        String reason = decision.reason();
        if (reason.startsWith(DEADLINE)) {
            return "deadline";
        }
        int voted = reason.indexOf(VOTED_ABORT);
        // "<id> voted abort...": an id has no spaces, so the phrase follows the first word
        return voted > 0 && reason.indexOf(' ') == voted ? "vote-abort" : "other";
    }
}
