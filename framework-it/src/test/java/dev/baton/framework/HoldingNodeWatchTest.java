package dev.baton.framework;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.framework.contention.Contention;
import dev.baton.framework.contention.ContentionRule;
import dev.baton.framework.contention.Holding;
import dev.baton.framework.contention.Ticket;
import dev.baton.test.ConnectString;
import dev.baton.test.EnsembleTest;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** A held node deleted by someone else is reported lost, whether it goes at once or later (the node watch starts after a short delay). */
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

    /** The server's count of watches, from its {@code wchs} four-letter word. */
    private static int totalWatches(String connect) throws Exception {
        String hostPort = connect.split(",")[0];
        int colon = hostPort.lastIndexOf(':');
        try (Socket socket = new Socket(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1)))) {
            socket.getOutputStream().write("wchs".getBytes(StandardCharsets.US_ASCII));
            String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
            Matcher total = Pattern.compile("Total watches:(\\d+)").matcher(answer);
            if (!total.find()) {
                throw new IllegalStateException("unexpected wchs answer: " + answer);
            }
            return Integer.parseInt(total.group(1));
        }
    }
}
