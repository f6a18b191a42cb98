package dev.baton.cli;

import dev.baton.framework.BatonClient;
import dev.baton.recipes.election.ElectionEvent;
import dev.baton.recipes.election.ElectionObserver;
import dev.baton.recipes.election.LeaderLatch;
import dev.baton.recipes.election.LeaderLatchListener;
import dev.baton.recipes.election.LeadershipPolicy;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code baton elect NAME -- CMD}: run a command only while leader; {@code --observe}: follow an election. */
@Command(name = "elect", mixinStandardHelpOptions = true,
    description = {"Campaign in the election NAME and run CMD only while leader; exit with CMD's code.",
        "CMD gets BATON_TERM (the leadership token: larger for every new term), BATON_ELECTION_PATH, BATON_LEADER_ID",
        "and BATON_SESSION_ID. If leadership is lost while CMD runs, CMD's process group gets SIGTERM, then SIGKILL",
        "after --kill-grace, and baton exits 75. With --observe, print one JSON line per leader change instead.",
        "NAME is a path if it starts with /, else /baton/elections/NAME. Curator's LeaderLatch on the same path interoperates."})
final class ElectCommand extends HeldCommand.Holder {
    @Parameters(index = "1..*", paramLabel = "CMD", description = "the command to run while leader (after --); none: lead until Ctrl-C")
    List<String> command;
    @Option(names = "--id", description = "this participant's id (default: host:pid)")
    String id;
    @Option(names = "--observe", description = "do not campaign: print {\"leader\":ID,\"term\":N} or {\"leader\":null} on every change")
    boolean observe;
    @Option(names = "--count", defaultValue = "-1", description = "with --observe: stop after this many lines")
    int count;

    @Override
    public Integer call() throws InterruptedException {
        String path = Names.path("elections", name);
        if (observe) {
            return observe(path);
        }
        hold.checkAgainst(connection.sessionTimeout);
        String participant = id != null ? id : ManagementFactory.getRuntimeMXBean().getName().replace('@', ':');
        try (BatonClient client = connection.connect()) {
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
            latch.start();
            elected.whenComplete((t, e) -> {
                if (e != null) {
                    latch.close(LeaderLatch.CloseMode.SILENT);
                }
            });
            java.time.Duration limit = hold.waitLimit();
            if (limit != null) {
                CompletableFuture.delayedExecutor(limit.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)
                    .execute(() -> elected.complete(null));
            }
            Long term = HeldCommand.await(elected);
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
            return HeldCommand.run(held, hold, command, env, "leadership of " + name, spec.commandLine().getErr());
        }
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
