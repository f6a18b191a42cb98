package dev.baton.recipes.transaction;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A participant incarnation's state machine, fed the nodes it would see. */
class SiteTest {
    private static final Transaction TX = new Transaction("_c_u-tx-0000000001", List.of("a", "b"), new byte[0],
        Duration.ofSeconds(5));
    private final Map<String, byte[]> nodes = new HashMap<>();
    private final Site site = new Site(TX, "/f/transactions/" + TX.id(), "a", 0);

    private Site.Step look() {
        return site.next(TransactionStatus.of(TX, 0, nodes));
    }

    private void node(String name, byte[] data) {
        nodes.put(name, data);
    }

    @Test
    void preparesOnceVotesThenIsToldOnceAndAcknowledges() {
        assertThat(look()).isInstanceOf(Site.Step.Prepare.class);
        assertThat(look()).as("prepare is running: nothing more").isInstanceOf(Site.Step.Wait.class);
        site.prepared(Vote.COMMIT, null);
        assertThat(look()).isEqualTo(new Site.Step.WriteVote(Vote.COMMIT, null));
        assertThat(look()).as("one write at a time").isInstanceOf(Site.Step.Wait.class);
        site.voteWritten(true, false);
        node("vote-a", Codec.vote(Vote.COMMIT, null));
        assertThat(look()).isInstanceOf(Site.Step.Wait.class);
        node("decision", Codec.decision(new Decision(Outcome.COMMIT, "all voted")));
        assertThat(look()).isEqualTo(new Site.Step.Tell(new Decision(Outcome.COMMIT, "all voted")));
        assertThat(look()).as("told once").isInstanceOf(Site.Step.Wait.class);
        site.toldHandler(true);
        assertThat(look()).isEqualTo(new Site.Step.WriteAck(Outcome.COMMIT));
        site.ackWritten(true);
        assertThat(site.phase()).isEqualTo(Site.Phase.DONE);
        assertThat(look()).isInstanceOf(Site.Step.Wait.class);
    }

    @Test
    void anEarlierIncarnationsVoteIsNeverPreparedAgain() {
        node("vote-a", Codec.vote(Vote.COMMIT, null));
        assertThat(look()).isInstanceOf(Site.Step.Wait.class);
        assertThat(site.phase()).isEqualTo(Site.Phase.VOTED);
        node("decision", Codec.decision(new Decision(Outcome.ABORT, "b voted abort")));
        assertThat(look()).isInstanceOf(Site.Step.Tell.class);
    }

    @Test
    void anEarlierIncarnationsVoteThatLandsAfterThisOnePreparedIsTheVoteThatCounts() {
        assertThat(look()).isInstanceOf(Site.Step.Prepare.class);
        site.prepared(Vote.ABORT, "changed its mind");
        assertThat(look()).isInstanceOf(Site.Step.WriteVote.class);
        site.voteWritten(false, false);   // refused: the earlier incarnation's vote got there first
        node("vote-a", Codec.vote(Vote.COMMIT, null));
        assertThat(look()).as("no endless rewrite of a vote that cannot land").isInstanceOf(Site.Step.Wait.class);
        assertThat(site.phase()).isEqualTo(Site.Phase.VOTED);
    }

    @Test
    void aVoteThatLandsAfterTheDecisionWasToldDoesNotTellAgain() {
        look();
        site.prepared(Vote.COMMIT, null);
        assertThat(look()).isInstanceOf(Site.Step.WriteVote.class);
        node("decision", Codec.decision(new Decision(Outcome.ABORT, "b voted abort")));
        assertThat(look()).isInstanceOf(Site.Step.Tell.class);    // the decision came while the vote was on its way
        site.voteWritten(true, false);                              // then the vote landed
        node("vote-a", Codec.vote(Vote.COMMIT, null));
        assertThat(look()).as("told once").isInstanceOf(Site.Step.Wait.class);
        assertThat(site.phase()).isEqualTo(Site.Phase.TELLING);
    }

    @Test
    void anEarlierIncarnationsAcknowledgementMeansNotToldAgain() {
        node("vote-a", Codec.vote(Vote.COMMIT, null));
        node("decision", Codec.decision(new Decision(Outcome.COMMIT, "all voted")));
        node("ack-a", Codec.ack(Outcome.COMMIT));
        assertThat(look()).isInstanceOf(Site.Step.Wait.class);
        assertThat(site.phase()).isEqualTo(Site.Phase.DONE);
    }

    @Test
    void aDecisionThatCameDuringPrepareIsToldAfterPrepareWithoutWritingTheVote() {
        assertThat(look()).isInstanceOf(Site.Step.Prepare.class);
        node("decision", Codec.decision(new Decision(Outcome.ABORT, "deadline")));
        assertThat(look()).as("not while prepare runs").isInstanceOf(Site.Step.Wait.class);
        site.prepared(Vote.COMMIT, null);
        assertThat(look()).isInstanceOf(Site.Step.Tell.class);
    }

    @Test
    void aHandlerThatThrowsIsNotAcknowledged() {
        node("decision", Codec.decision(new Decision(Outcome.ABORT, "deadline")));
        assertThat(look()).isInstanceOf(Site.Step.Tell.class);
        site.toldHandler(false);
        assertThat(look()).isInstanceOf(Site.Step.Wait.class);
        assertThat(site.phase()).isEqualTo(Site.Phase.DONE);
    }

    @Test
    void whatAVanishedTransactionMeansDependsOnWhetherTheVoteCanBeThere() {
        look();
        site.prepared(Vote.COMMIT, null);
        look();
        assertThat(site.votedButNeverTold()).as("the write was sent: the vote may be there").isTrue();
        site.voteWritten(false, true);
        assertThat(site.preparedButNeverVoted()).as("refused: the transaction is gone, the vote never landed").isTrue();
        assertThat(site.votedButNeverTold()).isFalse();
    }
}
