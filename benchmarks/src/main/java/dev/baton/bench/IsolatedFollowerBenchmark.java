package dev.baton.bench;

import dev.baton.framework.BatonClient;
import dev.baton.framework.BatonException;
import dev.baton.framework.ConnectionState;
import dev.baton.framework.ConnectionStateChange;
import dev.baton.framework.ConnectionStateListener;
import dev.baton.recipes.election.LeaderLatch;
import dev.baton.recipes.election.LeaderLatchListener;
import dev.baton.recipes.election.LeadershipPolicy;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.server.PartitionStyle;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * How long a follower cut off from its leader keeps answering, and when each side of the
 * partition gives up on a session: the window that the {@code LEASE} and {@code CONNECTION}
 * policies must stay inside (docs/election.md, "How LEASE decides").
 *
 * <p>Each round: a three-server in-process ensemble with peer proxies (tick 500 ms, syncLimit 6:
 * a follower gives up on a silent leader after 3 s). A {@code LEASE} latch leads on a client that
 * knows only one follower, for one session timeout (so its lease runs on the periodic syncs); a
 * second latch waits on a client of the other two servers. The clock starts as that follower is
 * silently cut off from the others ({@link PartitionStyle#SILENT}: a
 * firewall dropping packets). Measured, in milliseconds after the cut:
 * <ul>
 *   <li>{@code last read}: the last read the cut-off follower answered to a client that holds
 *       nothing (a read every 20 ms; a session that waits for a sync or a write gets no answer to
 *       its later reads either, as a server answers one session's requests in order);
 *   <li>{@code suspended}: the leader's client suspended its connection: its session's requests
 *       queue behind its sync stuck at the follower, pings too, so the client's read timeout
 *       (two thirds of the session timeout) runs from there;
 *   <li>{@code old lease}: when the lease rule before the confirmed-contact clock would have
 *       stepped down (the last answered request, or the disconnect minus two thirds of the
 *       session timeout, plus the session timeout minus the margin, counted from the disconnect);
 *   <li>{@code stepped down}: the latch's {@code notLeader()} under the confirmed-contact clock;
 *   <li>{@code expired}: the majority deleted the leader's node (its session expired);
 *   <li>{@code next leader}: the other latch's {@code isLeader()}.
 * </ul>
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar isolated-follower [rounds] [sessionMillis]}
 * (default 5 rounds, 4000 ms).
 */
public final class IsolatedFollowerBenchmark {
    private static final Duration WAIT = Duration.ofSeconds(60);

    private IsolatedFollowerBenchmark() {
    }

    /** One round's times, in ms after the cut. */
    private record Round(double lastRead, double suspended, double oldLease, double steppedDown, double expired,
                         double nextLeader) {
    }

    public static void main(String[] args) throws InterruptedException {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        Duration session = Duration.ofMillis(args.length > 1 ? Long.parseLong(args[1]) : 4000);
        Duration margin = LeadershipPolicy.defaultLeaseMargin(session);
        System.out.printf("3 servers, tick 500 ms, syncLimit 6; LEASE latch on one follower, session %d ms, margin %d ms%n",
            session.toMillis(), margin.toMillis());
        System.out.printf("%-6s %10s %10s %10s %13s %10s %12s   (ms after the follower was cut off)%n",
            "round", "last read", "suspended", "old lease", "stepped down", "expired", "next leader");
        List<Round> all = new ArrayList<>();
        try (EmbeddedEnsemble ensemble = EmbeddedEnsemble.builder().nodes(3).peerProxies(true).build()) {
            ensemble.start();
            for (int r = 1; r <= rounds; r++) {
                Round round = round(ensemble, session, margin, r);
                all.add(round);
                System.out.printf("%-6d %10.0f %10.0f %10.0f %13.0f %10.0f %12.0f%n", r, round.lastRead, round.suspended,
                    round.oldLease, round.steppedDown, round.expired, round.nextLeader);
                ensemble.healPartitions();
                awaitInSync(ensemble);
            }
        }
        System.out.printf("%-6s %10.0f %10.0f %10.0f %13.0f %10.0f %12.0f%n", "median",
            median(all, Round::lastRead), median(all, Round::suspended), median(all, Round::oldLease),
            median(all, Round::steppedDown), median(all, Round::expired), median(all, Round::nextLeader));
        System.out.printf("%-6s %10.0f %10.0f %10.0f %13.0f %10.0f %12.0f%n", "max",
            max(all, Round::lastRead), max(all, Round::suspended), max(all, Round::oldLease),
            max(all, Round::steppedDown), max(all, Round::expired), max(all, Round::nextLeader));
    }

    private static Round round(EmbeddedEnsemble ensemble, Duration session, Duration margin, int r) throws InterruptedException {
        int leader = ensemble.leaderId();
        int follower = IntStream.rangeClosed(1, 3).filter(id -> id != leader).findFirst().orElseThrow();
        String majority = IntStream.rangeClosed(1, 3).filter(id -> id != follower)
            .mapToObj(ensemble::connectString).collect(Collectors.joining(","));
        String path = "/bench/isolated-follower-" + r;
        try (BatonClient cutOff = started(ensemble.connectString(follower), session);
             BatonClient plain = started(ensemble.connectString(follower), session);
             BatonClient other = started(majority, Duration.ofSeconds(10));
             BatonClient observer = started(majority, Duration.ofSeconds(10))) {
            AtomicLong steppedDown = new AtomicLong();
            AtomicLong nextLeader = new AtomicLong();
            AtomicLong suspended = new AtomicLong();
            AtomicLong oldLease = new AtomicLong();
            LeaderLatch first = LeaderLatch.builder(cutOff, path, "cut-off").policy(LeadershipPolicy.LEASE).build();
            first.addListener(LeaderLatchListener.of(token -> { }, () -> steppedDown.compareAndSet(0, System.nanoTime())));
            first.start();
            first.await(WAIT);
            LeaderLatch second = LeaderLatch.builder(other, path, "other").policy(LeadershipPolicy.LEASE).build();
            second.addListener(LeaderLatchListener.of(token -> nextLeader.compareAndSet(0, System.nanoTime()), () -> { }));
            second.start();
            String firstNode = awaitTwoInLine(observer, path);
            // lead for a session timeout first, so the lease runs on the periodic syncs, as in a long term
            TimeUnit.NANOSECONDS.sleep(session.toNanos());
            cutOff.addConnectionStateListener(new ConnectionStateListener() {
                @Override
                public void stateChanged(BatonClient client, ConnectionState newState) {
                    // the variant with the session is the one used
                }

                @Override
                public void stateChanged(BatonClient client, ConnectionStateChange change) {
                    if (change.state() == ConnectionState.SUSPENDED && suspended.compareAndSet(0, System.nanoTime())) {
                        // the rule before the confirmed-contact clock: a timer from the disconnect
                        oldLease.set(client.lastServerContactNanos() + session.toNanos() - margin.toNanos());
                    }
                }
            });
            AtomicBoolean reading = new AtomicBoolean(true);
            AtomicLong lastRead = new AtomicLong();
            Thread reader = new Thread(() -> {
                while (reading.get()) {
                    try {
                        plain.checkExists().forPath("/");
                        lastRead.set(System.nanoTime());
                        TimeUnit.MILLISECONDS.sleep(20);
                    } catch (BatonException notAnswered) {
                        // cut off: keep asking, the time of the last answer is what counts
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "isolated-follower-reader");
            reader.start();

            long cut = System.nanoTime();
            ensemble.isolate(follower, PartitionStyle.SILENT);
            long expired = 0;
            long deadline = cut + WAIT.toNanos();
            while (expired == 0 || nextLeader.get() == 0 || steppedDown.get() == 0 || suspended.get() == 0) {
                if (System.nanoTime() - deadline > 0) {
                    throw new IllegalStateException("round " + r + " did not finish within " + WAIT);
                }
                if (expired == 0 && observer.checkExists().forPath(firstNode) == null) {
                    expired = System.nanoTime();
                }
                TimeUnit.MILLISECONDS.sleep(5);
            }
            reading.set(false);
            reader.interrupt();
            reader.join();
            second.close();
            ensemble.healPartitions();
            first.close();
            return new Round(ms(lastRead.get() - cut), ms(suspended.get() - cut), ms(oldLease.get() - cut),
                ms(steppedDown.get() - cut), ms(expired - cut), ms(nextLeader.get() - cut));
        }
    }

    private static String awaitTwoInLine(BatonClient observer, String path) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() - deadline < 0) {
            List<String> children = observer.checkExists().forPath(path) == null ? List.of() : observer.getChildren().forPath(path);
            if (children.size() == 2) {
                for (String child : children) {
                    byte[] data = observer.getData().forPath(path + "/" + child);
                    if ("cut-off".equals(new String(data, StandardCharsets.UTF_8))) {
                        return path + "/" + child;
                    }
                }
            }
            TimeUnit.MILLISECONDS.sleep(10);
        }
        throw new IllegalStateException("both latches not in line on " + path + " within " + WAIT);
    }

    private static BatonClient started(String connect, Duration session) throws InterruptedException {
        BatonClient client = BatonClient.builder().connectString(connect).sessionTimeout(session)
            .connectionTimeout(Duration.ofSeconds(1)).build();
        client.start();
        if (!client.blockUntilConnected(WAIT)) {
            throw new IllegalStateException("no connection to " + connect);
        }
        return client;
    }

    private static void awaitInSync(EmbeddedEnsemble ensemble) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!ensemble.inSync()) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("servers not in sync within " + WAIT);
            }
            TimeUnit.MILLISECONDS.sleep(20);
        }
    }

    private static double ms(long nanos) {
        return nanos / 1e6;
    }

    private static double median(List<Round> rounds, java.util.function.ToDoubleFunction<Round> field) {
        return Stats.of(rounds.stream().mapToDouble(field).toArray()).median();
    }

    private static double max(List<Round> rounds, java.util.function.ToDoubleFunction<Round> field) {
        return Stats.of(rounds.stream().mapToDouble(field).toArray()).max();
    }
}
