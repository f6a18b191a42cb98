package dev.baton.test.history;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The bounded-exclusion rules on hand-written histories, times in milliseconds. */
class BoundedExclusionTest {
    private static final BoundedExclusion.Rules STANDARD = new BoundedExclusion.Rules(1, Duration.ofMillis(300), "STANDARD");
    private final List<Event> events = new ArrayList<>();

    private static long ms(long millis) {
        return millis * 1_000_000;
    }

    private void acquired(String actor, long token, long view, long at) {
        events.add(new Event(events.size(), ms(at), actor, Event.Op.ACQUIRED, "/l", token, view, List.of(), false));
    }

    private void ended(String actor, Event.Op op, long at) {
        events.add(new Event(events.size(), ms(at), actor, op, "/l", 0));
    }

    private static ServerTruth.Node node(long czxid, long dzxid, long deletedAt) {
        return new ServerTruth.Node("/l/n" + czxid, czxid, 0, dzxid, dzxid == 0 ? 0 : ms(deletedAt), true, 0, null);
    }

    private BoundedExclusion.Result check(BoundedExclusion.Rules rules, ServerTruth.Node... nodes) {
        return BoundedExclusion.check(events, ServerTruth.of(List.of(nodes)), rules);
    }

    @Test
    void aHandOverWithoutOverlapIsClean() {
        acquired("a", 10, 10, 0);
        ended("a", Event.Op.RELEASED, 5);
        acquired("b", 11, 12, 6);
        BoundedExclusion.Result r = check(STANDARD, node(10, 12, 5), node(11, 0, 0));
        assertThat(r.violations()).isEmpty();
        assertThat(r.overlaps()).isZero();
    }

    @Test
    void aGrantWhileTheEarlierHoldersNodeStillExistedIsADoubleGrant() {
        acquired("a", 10, 10, 0);
        acquired("b", 11, 11, 2);       // b's view (11) is before a's node was deleted (12)
        ended("a", Event.Op.RELEASED, 5);
        BoundedExclusion.Result r = check(STANDARD, node(10, 12, 5), node(11, 0, 0));
        assertThat(r.violations()).singleElement().asString().contains("double grant");
    }

    /**
     * ZooKeeper raises a client's last-seen zxid on replies, not on watch notifications: a mutex
     * granted on the notification of its predecessor's deletion records a view below that deletion.
     * Seen in a chaos canary run (seed 16520233704159): a holder that never signalled its loss was
     * reported as "double grant" instead of "believed after that deletion". The deletion's time
     * then decides; a grant before the deletion, by time, is still a double grant.
     */
    @Test
    void aViewBelowTheDeletionIsJudgedByTheDeletionsTime() {
        acquired("a", 10, 10, 0);
        acquired("b", 11, 11, 1_010);   // view 11 < a's deletion (12), yet granted 10 ms after it
        ended("a", Event.Op.LOST, 1_150);
        BoundedExclusion.Result r = check(STANDARD, node(10, 12, 1_000), node(11, 0, 0));
        assertThat(r.violations()).isEmpty();
        assertThat(r.excusedLate()).isEqualTo(1);

        events.clear();
        acquired("a", 10, 10, 0);
        acquired("b", 11, 11, 1_010);
        ended("a", Event.Op.LOST, 1_600);   // believed 600 ms after the deletion: late, not a double grant
        r = check(STANDARD, node(10, 12, 1_000), node(11, 0, 0));
        assertThat(r.violations()).singleElement().asString().contains("after that deletion");
    }

    @Test
    void aHolderThatHearsOfItsLossWithinTheBoundIsExcused() {
        acquired("a", 10, 10, 0);
        acquired("b", 11, 12, 1_010);   // the servers deleted a's node at 1,000 (zxid 12)
        ended("a", Event.Op.LOST, 1_150);
        BoundedExclusion.Result r = check(STANDARD, node(10, 12, 1_000), node(11, 0, 0));
        assertThat(r.violations()).isEmpty();
        assertThat(r.excusedLate()).isEqualTo(1);
        assertThat(r.latestBeliefMillis()).isEqualTo(150.0);
    }

    /**
     * A deletion no observer heard is known between the leader's proposal time (from the logs) and
     * the next thing an observer heard: an overlap is excused only within the bound from the
     * floor, a violation only beyond it from the ceiling, and unjudged in between.
     */
    @Test
    void aDeletionKnownOnlyBetweenTwoTimesIsJudgedOnlyWhereBothAgree() {
        ServerTruth.Node between = new ServerTruth.Node("/l/n10", 10, 0, 12, ms(1_200), true, 0, null, ms(1_000));
        acquired("a", 10, 10, 0);
        acquired("b", 11, 12, 1_250);
        ended("a", Event.Op.LOST, 1_250);     // 250 ms after the floor, 50 after the ceiling
        BoundedExclusion.Result r = check(STANDARD, between, node(11, 0, 0));
        assertThat(r.violations()).isEmpty();
        assertThat(r.excusedLate()).isEqualTo(1);

        events.clear();
        acquired("a", 10, 10, 0);
        acquired("b", 11, 12, 1_250);
        ended("a", Event.Op.LOST, 1_400);     // 400 ms after the floor, 200 after the ceiling: could be either
        r = check(STANDARD, between, node(11, 0, 0));
        assertThat(r.violations()).isEmpty();
        assertThat(r.unjudged()).isEqualTo(1);

        events.clear();
        acquired("a", 10, 10, 0);
        acquired("b", 11, 12, 1_250);
        ended("a", Event.Op.LOST, 1_600);     // 400 ms after the ceiling: late whenever it was deleted
        assertThat(check(STANDARD, between, node(11, 0, 0)).violations()).singleElement().asString()
            .contains("at least 400 ms");
    }

    @Test
    void aHolderThatHearsTooLateOrNeverIsAViolation() {
        acquired("a", 10, 10, 0);
        acquired("b", 11, 12, 1_010);
        ended("a", Event.Op.LOST, 1_400);
        assertThat(check(STANDARD, node(10, 12, 1_000), node(11, 0, 0)).violations()).singleElement().asString()
            .contains("believed it held for at least 400 ms");
        events.clear();
        acquired("a", 10, 10, 0);
        acquired("b", 11, 12, 1_010);
        ended("b", Event.Op.RELEASED, 2_000);  // a never hears at all
        assertThat(check(STANDARD, node(10, 12, 1_000), node(11, 13, 2_001)).violations()).singleElement().asString()
            .contains("never signalling the loss");
        assertThat(check(new BoundedExclusion.Rules(1, Duration.ofSeconds(3), "SESSION_ONLY"), node(10, 12, 1_000),
            node(11, 13, 2_001)).violations()).as("within a session timeout under SESSION_ONLY").isEmpty();
    }

    @Test
    void aProcessPauseIsTheFencesJobAndAStaleWriteTheStoreAcceptedIsAViolation() {
        acquired("a", 10, 10, 0);
        acquired("b", 11, 12, 1_010);
        events.add(new Event(events.size(), ms(1_020), "b", Event.Op.FENCED_WRITE, "store", 11));
        events.add(new Event(events.size(), ms(500), "a", Event.Op.PAUSED, "process", ms(5_000)));
        events.add(new Event(events.size(), ms(5_001), "a", Event.Op.FENCE_REFUSED, "store", 10));
        ended("a", Event.Op.LOST, 5_100);
        BoundedExclusion.Result fenced = check(STANDARD, node(10, 12, 1_000), node(11, 0, 0));
        assertThat(fenced.violations()).isEmpty();
        assertThat(fenced.excusedPaused()).isEqualTo(1);

        events.add(events.size() - 1, new Event(events.size() - 1, ms(5_050), "a", Event.Op.FENCED_WRITE, "store", 10));
        List<Event> renumbered = new ArrayList<>();
        for (Event e : events) {
            renumbered.add(new Event(renumbered.size(), e.nanos(), e.actor(), e.op(), e.key(), e.value(), e.viewZxid(),
                e.nodes(), e.shared()));
        }
        assertThat(BoundedExclusion.check(renumbered, ServerTruth.of(List.of(node(10, 12, 1_000), node(11, 0, 0))), STANDARD)
            .violations()).singleElement().asString().contains("resource accepted it");
    }

    @Test
    void aSemaphoreCountsOnlyHoldersWhoseNodesLive() {
        BoundedExclusion.Rules two = new BoundedExclusion.Rules(2, Duration.ofMillis(300), "STANDARD");
        acquired("a", 10, 10, 0);
        acquired("b", 11, 11, 1);
        acquired("c", 12, 12, 2);      // a third while a and b both live: too many
        BoundedExclusion.Result r = check(two, node(10, 0, 0), node(11, 0, 0), node(12, 0, 0));
        assertThat(r.violations()).singleElement().asString().contains("at most 2 allowed");
        assertThat(check(two, node(10, 12, 1), node(11, 0, 0), node(12, 0, 0)).violations())
            .as("a's node went before c's view").isEmpty();
    }

    @Test
    void readersShareButAWriterDoesNot() {
        events.add(new Event(0, ms(0), "r1", Event.Op.ACQUIRED, "/l", 10, 10, List.of(), true));
        events.add(new Event(1, ms(1), "r2", Event.Op.ACQUIRED, "/l", 11, 11, List.of(), true));
        events.add(new Event(2, ms(2), "w", Event.Op.ACQUIRED, "/l", 12, 12, List.of(), false));
        BoundedExclusion.Result r = check(new BoundedExclusion.Rules(1, Duration.ofMillis(300), "STANDARD"),
            node(10, 0, 0), node(11, 0, 0), node(12, 0, 0));
        assertThat(r.violations()).filteredOn(v -> v.contains("double grant")).hasSize(2);
    }

    @Test
    void readersMayEnterOutOfTokenOrderButAWriterMayNot() {
        events.add(new Event(0, ms(0), "r1", Event.Op.ACQUIRED, "/l", 11, 11, List.of(), true));
        events.add(new Event(1, ms(1), "r2", Event.Op.ACQUIRED, "/l", 10, 11, List.of(), true));
        events.add(new Event(2, ms(2), "r1", Event.Op.RELEASED, "/l", 0));
        events.add(new Event(3, ms(3), "r2", Event.Op.RELEASED, "/l", 0));
        events.add(new Event(4, ms(4), "w", Event.Op.ACQUIRED, "/l", 9, 14, List.of(), false));
        BoundedExclusion.Result r = check(STANDARD, node(11, 12, 2), node(10, 13, 3), node(9, 0, 0));
        assertThat(r.violations()).singleElement().asString().contains("fencing token 9 is not larger than 11");
    }
}
