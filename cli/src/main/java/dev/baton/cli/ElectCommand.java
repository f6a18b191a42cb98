package dev.baton.cli;

import dev.baton.framework.BatonClient;
import dev.baton.framework.contention.Contenders;
import dev.baton.recipes.election.ElectionEvent;
import dev.baton.recipes.election.ElectionObserver;
import dev.baton.recipes.election.LeaderLatch;
import dev.baton.recipes.election.LeaderLatchListener;
import dev.baton.recipes.election.LeadershipPolicy;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.apache.zookeeper.data.Stat;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code baton elect NAME -- CMD}: run a command only while leader; {@code --observe}: follow an election. */
@Command(name = "elect",
    description = {"Run a command only while leader.",
        "Campaign in the election NAME and run CMD only while leader; exit with CMD's code. CMD gets BATON_TERM "
        + "(the leadership token: larger for every new term), BATON_ELECTION_PATH, BATON_LEADER_ID and BATON_SESSION_ID. "
        + "If leadership is lost while CMD runs, every process of CMD gets SIGTERM, then SIGKILL after --kill-grace, and baton "
        + "exits 75. Signals as for lock: a second SIGINT or SIGTERM kills CMD. With --observe, print one JSON line per "
        + "leader change instead. NAME is a path if it starts with /, "
        + "else /baton/elections/NAME. Curator's LeaderLatch on the same path interoperates."})
final class ElectCommand extends HeldCommand.Holder {
    /** Latches (Baton's and Curator's) name their nodes {@code _c_<uuid>-latch-<seq>}. */
    private static final String LATCH = "latch-";
    /** How often --try looks at the line until this participant's node is in it. */
    private static final Duration LOOK_AGAIN = Duration.ofMillis(20);

    @Parameters(index = "1..*", arity = "0..*", paramLabel = "CMD",
        description = "The command to run while leader (after --); without one, lead until Ctrl-C.")
    List<String> command;
    @Option(names = "--id", paramLabel = "ID", description = "This participant's id (default: host:pid).")
    String id;
    @Option(names = "--observe",
        description = "Do not campaign: print {\"leader\":ID,\"term\":N} or {\"leader\":null} on every change.")
    boolean observe;
    @Option(names = "--count", paramLabel = "N", defaultValue = "-1", description = "With --observe: stop after N lines (default: never).")
    int count;

    @Override
    public Integer call() throws InterruptedException {
        String path = Names.path("elections", name);
        if (observe) {
            if (command != null && !command.isEmpty()) {
                // it would be ignored: a script that meant to run it as leader would think it ran
                throw new CliExit(ExitCodes.USAGE, "--observe campaigns for nothing and runs no command; drop --observe to run "
                    + command.get(0) + " while leader");
            }
            if (count == 0 || count < -1) {
                throw new CliExit(ExitCodes.USAGE, "--count must be 1 or more, was " + count);
            }
            return observe(path);
        }
        hold.checkAgainst(connection.sessionTimeout);
        HeldCommand.checkRunnable(command);
        Duration limit = hold.waitLimit();
        String participant = id != null ? id : defaultId();
        try (BatonClient client = connection.connect()) {
            GraceCheck grace = GraceCheck.watch(client, hold, connection.sessionTimeout);
            LeaderLatch latch = LeaderLatch.builder(client, path, participant).policy(LeadershipPolicy.CONNECTION).build();
            CompletableFuture<Long> elected = new CompletableFuture<>();
            List<Runnable> onLost = new CopyOnWriteArrayList<>();
            latch.addListener(new LeaderLatchListener() {
                @Override
                public void isLeader() {
                }

                @Override
                public void isLeader(long token) {
                    elected.complete(token);
                }

                @Override
                public void notLeader() {
                    onLost.forEach(Runnable::run);
                }
            });
            HeldCommand.keepSignals();
            latch.start();
            elected.whenComplete((t, e) -> {
                if (e != null) {
                    latch.close(LeaderLatch.CloseMode.SILENT);
                }
            });
            if (hold.tryOnce) {
                decideOnFirstLook(client, path, elected, connection.connectTimeout());
            } else if (limit != null) {
                CompletableFuture.delayedExecutor(limit.toMillis(), TimeUnit.MILLISECONDS).execute(() -> elected.complete(null));
            }
            Long term = HeldCommand.await(elected, grace);
            if (term == null) {
                latch.close(LeaderLatch.CloseMode.SILENT);
                throw new CliExit(ExitCodes.NOT_ACQUIRED, "not elected leader of " + name + " " + (hold.tryOnce ? "(another participant leads)"
                    : "within " + Durations.format(limit)));
            }
            Map<String, String> env = Map.of(
                "BATON_TERM", Long.toString(term),
                "BATON_ELECTION_PATH", path,
                "BATON_LEADER_ID", participant,
                "BATON_SESSION_ID", "0x" + Long.toHexString(client.sessionId()));
            HeldCommand.Held held = new HeldCommand.Held() {
                @Override
                public long token() {
                    return term;
                }

                @Override
                public void onLost(Runnable callback) {
                    onLost.add(callback);
                    if (!latch.hasLeadership()) {
                        callback.run();
                    }
                }

                @Override
                public Optional<String> lossReason() {
                    return Optional.of("leadership ended (" + latch.state() + ")");
                }

                @Override
                public void release() {
                    latch.close(LeaderLatch.CloseMode.SILENT);
                }
            };
            return HeldCommand.run(held, hold, grace, new SessionLease(client, path, grace, connection.sessionTimeout, hold.killGrace),
                command, env, "leadership of " + name, spec.commandLine().getErr());
        }
    }

    /** {@code host:pid}: unique per process, and says where to look. */
    static String defaultId() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            host = "localhost";
        }
        return host + ":" + ProcessHandle.current().pid();
    }

    /**
     * For --try: completes {@code elected} with null (not elected) as soon as the line shows
     * another participant ahead of this one — once this one's node is in line, not on a timer,
     * which could fire before the first round trip. This one's node is the one its session owns,
     * not the one with its id: another participant may use the same id. First in line, it waits
     * (up to {@code bound}) for the latch to confirm and lead.
     */
    private static void decideOnFirstLook(BatonClient client, String path, CompletableFuture<Long> elected, Duration bound) {
        Thread looker = new Thread(() -> {
            long deadline = System.nanoTime() + bound.toNanos();
            while (!elected.isDone() && System.nanoTime() - deadline < 0) {
                try {
                    if (placeInLine(client, path) > 0) {
                        elected.complete(null);
                        return;
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                } catch (RuntimeException notYet) {
                    // the election's folder may not exist yet, or the connection blinked: look again
                }
                LockSupport.parkNanos(LOOK_AGAIN.toNanos());
            }
            elected.complete(null);
        }, "baton-elect-try");
        looker.setDaemon(true);
        looker.start();
    }

    /** Where the node this client's session owns stands in the election's line (0: first), or -1 while it has none there. */
    private static int placeInLine(BatonClient client, String path) throws InterruptedException {
        List<String> line = Contenders.inOrder(client.getChildren().forPath(path), Set.of(LATCH));
        long session = client.sessionId();
        // from the back: a node just made is there
        for (int i = line.size() - 1; i >= 0; i--) {
            Stat stat = client.checkExists().forPath(path + "/" + line.get(i));
            if (stat != null && stat.getEphemeralOwner() == session) {
                return i;
            }
        }
        return -1;
    }

    private int observe(String path) throws InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        try (Lifetime life = new Lifetime();
             BatonClient client = connection.connect();
             ElectionObserver observer = new ElectionObserver(client, path)) {
            java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(1);
            java.util.concurrent.atomic.AtomicInteger printed = new java.util.concurrent.atomic.AtomicInteger();
            observer.addListener(event -> {
                synchronized (out) {
                    out.println(json(event));
                    out.flush();
                }
                if (count >= 0 && printed.incrementAndGet() >= count) {
                    done.countDown();
                }
            });
            observer.start();
            Thread stopper = new Thread(() -> {
                try {
                    life.awaitStop();
                    done.countDown();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "baton-observe-stop");
            stopper.setDaemon(true);
            stopper.start();
            done.await();
            return ExitCodes.OK;
        }
    }

    static String json(ElectionEvent event) {
        if (event instanceof ElectionEvent.LeaderChanged changed) {
            return "{\"leader\":\"" + escape(changed.leader().id()) + "\",\"term\":" + changed.token() + "}";
        }
        return "{\"leader\":null}";
    }

    private static String escape(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"");
    }
}
