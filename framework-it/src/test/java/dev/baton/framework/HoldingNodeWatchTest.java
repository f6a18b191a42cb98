package dev.baton.framework;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.contention.Contention;
import dev.baton.framework.contention.ContentionRule;
import dev.baton.framework.contention.Holding;
import dev.baton.framework.contention.Ticket;
import dev.baton.test.ConnectString;
import dev.baton.test.CountingClient;
import dev.baton.test.CountingClient.Read;
import dev.baton.test.EnsembleTest;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A held node deleted by someone else is reported lost, whether it goes at once or later: through
 * the monitor's own watch, through the engine's watch a waiter hands to its hold, or through the
 * watch a hold granted at the first look gets once it lasts.
 */
@EnsembleTest
class HoldingNodeWatchTest {
    private static final Duration WAIT = Duration.ofSeconds(10);

    @Test
    void aNodeDeletedRightAfterTheHoldStartsIsStillReportedLost(BatonClient holder, BatonClient operator) throws Exception {
        Ticket ticket = Contention.of(holder, "/holding/at-once", "lock-", ContentionRule.mutex()).acquireBlocking(new byte[0], WAIT);
        Holding holding = Holding.monitor(holder, ticket, holder.errorPolicy());
        AtomicInteger lost = new AtomicInteger();
        holding.onLost(lost::incrementAndGet);

        operator.delete().forPath(ticket.path());

        await().atMost(WAIT).until(() -> lost.get() == 1 && !holding.isValid());
        assertThat(holding.lossReason()).get().asString().contains("deleted");
    }

    @Test
    void aNodeDeletedOnceItIsWatchedIsReportedLost(BatonClient holder, BatonClient operator, @ConnectString String connect)
        throws Exception {
        int watchesBefore = totalWatches(connect);
        Ticket ticket = Contention.of(holder, "/holding/later", "lock-", ContentionRule.mutex()).acquireBlocking(new byte[0], WAIT);
        Holding holding = Holding.monitor(holder, ticket, holder.errorPolicy());
        AtomicInteger lost = new AtomicInteger();
        holding.onLost(lost::incrementAndGet);
        await().atMost(WAIT).until(() -> totalWatches(connect) > watchesBefore);

        operator.delete().forPath(ticket.path());

        await().atMost(WAIT).until(() -> lost.get() == 1 && !holding.isValid());
    }

    @Test
    void aHoldGrantedAfterWaitingInheritsTheEnginesWatchAndMakesNoRequestOfItsOwn(BatonClient holder, BatonClient waiter,
                                                                                 BatonClient operator) throws Exception {
        String dir = "/holding/inherited";
        Contention first = Contention.of(holder, dir, "lock-", ContentionRule.mutex());
        Ticket held = first.acquireBlocking(new byte[0], WAIT);
        CountingClient counting = CountingClient.wrap(waiter);
        CompletableFuture<Holding> next = Contention.of(counting.client(), dir, "lock-", ContentionRule.mutex())
            .acquireHold(new byte[0], WAIT);
        // waiting: it watches its predecessor and its own node
        // (an exists watch on its own node, a getData watch on its predecessor)
        await().atMost(WAIT).until(() -> counting.reads(Read.CHECK_EXISTS) == 1 && counting.reads(Read.GET_DATA) == 1);

        first.release(held).get();
        Holding hold = next.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        AtomicInteger lost = new AtomicInteger();
        hold.onLost(lost::incrementAndGet);
        operator.delete().forPath(hold.ticket().path());

        await().atMost(WAIT).until(() -> lost.get() == 1 && !hold.isValid());
        assertThat(hold.lossReason()).get().asString().contains("deleted");
        assertThat(counting.reads(Read.CHECK_EXISTS)).as("the hold's monitor set no watch of its own").isEqualTo(1);
    }

    @Test
    void aHoldGrantedAtTheFirstLookIsStillReportedLostWhenItsNodeIsDeleted(BatonClient holder, BatonClient operator)
        throws Exception {
        Holding hold = Contention.of(holder, "/holding/first-look", "lock-", ContentionRule.mutex())
            .acquireHoldBlocking(new byte[0], WAIT);
        AtomicInteger lost = new AtomicInteger();
        hold.onLost(lost::incrementAndGet);

        operator.delete().forPath(hold.ticket().path());

        await().atMost(WAIT).until(() -> lost.get() == 1 && !hold.isValid());
        assertThat(hold.lossReason()).get().asString().contains("deleted");
    }

    /** The server's count of watches, from its {@code wchs} four-letter word (the first server of {@code connect}). */
    private static int totalWatches(String connect) throws Exception {
        String hostPort = connect.split(",")[0];
        return ServerWatches.total(Integer.parseInt(hostPort.substring(hostPort.lastIndexOf(':') + 1)));
    }
}
