package dev.baton.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.BatonClient;
import dev.baton.recipes.transaction.PendingTransaction;
import dev.baton.recipes.transaction.Transaction;
import dev.baton.recipes.transaction.TransactionCoordinator;
import dev.baton.recipes.transaction.TransactionFolder;
import dev.baton.recipes.transaction.TransactionHandler;
import dev.baton.recipes.transaction.TransactionParticipant;
import dev.baton.recipes.transaction.Vote;
import dev.baton.test.EnsembleTest;
import dev.baton.test.TestClients;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** {@code baton tx} as a child process: an operator sees votes, decisions and acknowledgements. */
@EnsembleTest
class TxCommandTest extends AgainstEnsemble {
    /** Votes commit, except that "slow" waits for {@code go} first. */
    private static TransactionHandler handler(CountDownLatch go) {
        return new TransactionHandler() {
            @Override
            public Vote prepare(Transaction tx) throws InterruptedException {
                go.await(1, TimeUnit.MINUTES);
                return Vote.COMMIT;
            }

            @Override
            public void commit(Transaction tx) {
            }

            @Override
            public void abort(Transaction tx) {
            }
        };
    }

    @Test
    void lsAndShowPrintVotesDecisionAndAcknowledgements() throws Exception {
        String folder = "/shop/tx";
        CountDownLatch open = new CountDownLatch(0);
        CountDownLatch slowMayVote = new CountDownLatch(1);
        try (BatonClient participants = TestClients.started(ensemble.connectString(), Duration.ofSeconds(10));
             TransactionParticipant stock = TransactionParticipant.builder(participants, folder, "stock", handler(open)).build();
             TransactionParticipant billing = TransactionParticipant.builder(participants, folder, "billing", handler(open)).build();
             TransactionParticipant slow = TransactionParticipant.builder(participants, folder, "slow", handler(slowMayVote)).build()) {
            stock.start();
            billing.start();
            slow.start();
            TransactionFolder view = new TransactionFolder(participants, folder);
            String decided;
            // the coordinator's client goes away: its decided transaction stays for the operator to see
            try (BatonClient gone = TestClients.started(ensemble.connectString(), Duration.ofSeconds(10))) {
                decided = TransactionCoordinator.builder(gone, folder).build()
                    .start(Set.of("stock", "billing"), "order 7".getBytes(), Duration.ofMinutes(1)).id();
            }
            await().atMost(WAIT).until(() -> view.transaction(decided).map(s -> s.acknowledged().size() == 2).orElse(false));
            PendingTransaction pending = TransactionCoordinator.builder(participants, folder).build()
                .start(Set.of("stock", "slow"), new byte[0], Duration.ofMinutes(1));
            await().atMost(WAIT).until(() -> view.transaction(pending.id()).map(s -> s.votes().containsKey("stock")).orElse(false));

            BatonProcess ls = start("tx", "ls", folder);
            assertThat(ls.finish(WAIT)).as("stderr: %s", ls.stderr()).isZero();
            assertThat(ls.stdout()).isEqualTo(
                decided + " commit votes=billing:commit,stock:commit acks=billing,stock\n"
                + pending.id() + " undecided votes=slow:-,stock:commit acks=-\n");

            BatonProcess show = start("tx", "show", folder, decided);
            assertThat(show.finish(WAIT)).as("stderr: %s", show.stderr()).isZero();
            assertThat(show.stdout())
                .contains("transaction " + decided + "\n")
                .contains("  deadline     60000 ms\n")
                .contains("  payload      7 bytes\n")
                .contains("  participants billing stock\n")
                .contains("  votes        billing=commit stock=commit\n")
                .contains("  decision     commit (all 2 participants voted commit (recorded by ")
                .contains("  acknowledged billing,stock\n");

            BatonProcess all = start("tx", "show", folder);
            assertThat(all.finish(WAIT)).as("stderr: %s", all.stderr()).isZero();
            assertThat(all.stdout()).startsWith("participants registered: billing slow stock\n")
                .contains("transaction " + pending.id() + "\n").contains("  decision     undecided\n");

            BatonProcess missing = start("tx", "show", folder, "_c_none-tx-0000000099");
            assertThat(missing.finish(WAIT)).isEqualTo(ExitCodes.NOT_ACQUIRED);
            assertThat(missing.stderr()).contains("no transaction _c_none-tx-0000000099 in /shop/tx");
            BatonProcess nowhere = start("tx", "show", "/shop/none");
            assertThat(nowhere.finish(WAIT)).as("a missing folder exits 1, like ls and get").isEqualTo(ExitCodes.NOT_ACQUIRED);
            assertThat(nowhere.stdout()).isEmpty();
            assertThat(nowhere.stderr()).isEqualTo("baton: no node /shop/none\n");
            BatonProcess lsNowhere = start("tx", "ls", "/shop/none");
            assertThat(lsNowhere.finish(WAIT)).as("ls of a missing folder exits 1, like show").isEqualTo(ExitCodes.NOT_ACQUIRED);
            assertThat(lsNowhere.stdout()).isEmpty();
            assertThat(lsNowhere.stderr()).isEqualTo("baton: no node /shop/none\n");
            participants.create().creatingParentsIfNeeded().forPath("/shop/empty");
            BatonProcess empty = start("tx", "show", "/shop/empty");
            assertThat(empty.finish(WAIT)).as("stderr: %s", empty.stderr()).isZero();
            assertThat(empty.stdout()).isEqualTo("participants registered: none\n");
            BatonProcess bad = start("tx", "commit", folder);
            assertThat(bad.finish(WAIT)).isEqualTo(ExitCodes.USAGE);
            assertThat(bad.stderr()).contains("tx action must be ls or show, was 'commit'");
            BatonProcess dots = start("tx", "show", folder, "..");
            assertThat(dots.finish(WAIT)).as("an ID that cannot name a node is a usage error").isEqualTo(ExitCodes.USAGE);
            assertThat(dots.stderr()).isEqualTo("baton: a transaction ID is a node name (not empty, without '/', not '.' or '..');"
                + " was '..'\n");
            slowMayVote.countDown();
        }
    }
}
