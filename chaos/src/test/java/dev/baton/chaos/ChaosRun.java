package dev.baton.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ConnectionLossException;
import dev.baton.framework.ErrorPolicy;
import dev.baton.framework.OperationTimeoutException;
import dev.baton.framework.SessionExpiredException;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.server.ServerMode;
import dev.baton.test.ClientLink;
import dev.baton.test.Nemesis;
import dev.baton.test.Nemesis.Fault;
import dev.baton.test.TestClients;
import dev.baton.test.history.ServerTruth;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One recipe's chaos run: clients each behind its own {@link ClientLink}, a seeded
 * {@link Nemesis} that injects every fault kind of the run at least {@link #PER_KIND} times, a
 * {@link ServerTruth} observing the recipe's folders, {@link Workers} that record every exception,
 * and at the end a verdict — operations, faults by kind, exceptions by type, each check's
 * violations, liveness after healing — printed with the seed and written to
 * {@code target/chaos-reports/<recipe>.txt}. The run fails on any violation, on an exception
 * outside the recipe's documented failures, on a worker that makes no progress within
 * {@link #SESSION} plus {@link #LIVENESS_MARGIN} of the heal, and on a fault kind that happened
 * fewer than {@link #PER_KIND} times.
 *
 * <p>{@code -Dbaton.chaos.seconds=N} sets how long the faults run at least (default 6; the
 * nemesis runs on until every kind has happened); {@code -Dbaton.chaos.perKind=N} the guaranteed
 * count per kind (default 1); {@code -Dbaton.chaos.seed=S} replays a run's fault schedule.
 */
final class ChaosRun implements AutoCloseable {
    /** The clients' session timeout: short, so expiry, suspension and recovery all happen inside a run. */
    static final Duration SESSION = Duration.ofSeconds(3);
    /**
     * How long after the servers deleted a holder's node the holder may still believe, under the
     * STANDARD error policy and the LEASE leadership policy: event delivery. Measured by
     * {@link SessionEndDeliveryTest} on the embedded ensemble (child-process servers): a client
     * whose session the servers end while it is connected hears Disconnected 92-104 ms (medians
     * 99-102) after an observer sees its node deleted, and a Baton client reports SUSPENDED 91-103
     * ms after (15 trials each on 2026-11-27, then 6 each in three later runs). 500 ms leaves room
     * for a loaded 2-core machine
     * (five clients, three server JVMs and the observers) without hiding a holder that waits for
     * anything but that event: the next signal a client gets is its session's expiry on
     * reconnecting, a whole connection timeout later.
     *
     * <p>LEASE does not act on that event (it rides through a disconnect until its deadline), so
     * for LEASE the margin bounds only how late its own deadline may fire against the servers'
     * expiry, not a forced session end: the servers drop the client's connection in the same step
     * as they delete its node, and the leader hears of the end only when it reconnects or at its
     * deadline (ci19, seed 68637040136302: 615 ms). The LEASE run therefore has no EXPIRE_SESSION;
     * see ElectionChaosTest.
     */
    static final Duration DELIVERY_MARGIN = Duration.ofMillis(500);
    /**
     * Under SESSION_ONLY (locks) and SESSION (election) a holder keeps its hold through a
     * disconnect until its session is known lost; the documented bound (docs/locks.md,
     * docs/election.md) is one session timeout of both believing, plus the delivery margin.
     */
    static final Duration SESSION_ONLY_BOUND = SESSION.plus(DELIVERY_MARGIN);
    /** Beyond one session timeout after the heal, how long a worker may take to complete an operation. */
    static final Duration LIVENESS_MARGIN = Duration.ofSeconds(7);
    /**
     * How long ISOLATE_LEADER, ISOLATE_FOLLOWER and SPLIT_SERVERS keep the servers apart: longer
     * than the session timeout, so the majority expires the sessions of clients on the cut-off
     * side, and shorter than {@link #PEER_SYNC_LIMIT} ticks, so a silently cut-off follower is
     * still answering those clients when it does (the case the confirmed-contact clock is for).
     */
    static final Duration PARTITION = SESSION.plusSeconds(1);
    /**
     * {@code syncLimit} of the ensembles with peer proxies: with the default 500 ms tick, a server
     * cut off silently keeps serving its clients for 5 s, longer than {@link #PARTITION} and the
     * session timeout (as ZooKeeper's defaults, 5 ticks of 2 s, outlast many session timeouts).
     */
    static final int PEER_SYNC_LIMIT = 10;
    /** Whether this is a soak run ({@code -Pchaos-soak}): every fault kind, partitions included. */
    static final boolean ALL_FAULTS = Boolean.getBoolean("baton.chaos.allFaults");
    /** The partitions between servers, which a run gets on an ensemble with peer proxies. */
    static final List<Fault> PARTITIONS = List.of(Fault.ISOLATE_LEADER, Fault.ISOLATE_FOLLOWER, Fault.SPLIT_SERVERS);
    /** How many times each fault kind of a run happens at least. */
    static final int PER_KIND = Integer.getInteger("baton.chaos.perKind", 1);
    /** Failures every recipe documents under faults: the connection or the session was lost, a request timed out. */
    static final List<Class<? extends Throwable>> CONNECTION_TROUBLE = List.of(ConnectionLossException.class,
        SessionExpiredException.class, OperationTimeoutException.class);

    final String recipe;
    final EmbeddedEnsemble ensemble;
    final long seed;
    final List<ClientLink> links = new ArrayList<>();
    final List<BatonClient> clients = new ArrayList<>();
    final Workers workers;
    /** The servers' truth as the observers see it while the run goes; judge with {@link #truth()}. */
    final ServerTruth truth;
    private final Nemesis nemesis;
    private final List<Fault> faults;
    private Nemesis.Report report;
    private Duration ran = duration();
    private long healedNanos;
    private final List<String> stuck = new ArrayList<>();

    private ChaosRun(Builder b) throws InterruptedException {
        this.recipe = b.recipe;
        this.ensemble = b.ensemble;
        this.seed = seed();
        this.faults = b.faults.stream().filter(f -> ensemble.peerProxies() || !PARTITIONS.contains(f)).toList();
        this.ran = b.duration;
        this.workers = new Workers(b.documented);
        this.truth = ServerTruth.watch(ensemble, b.roots);
        for (int i = 0; i < b.clients; i++) {
            ClientLink link = ClientLink.to(ensemble);
            links.add(link);
            String connect = b.oneServerEach ? link.connectString(i % ensemble.size() + 1) : link.connectString();
            BatonClient client = TestClients.started(BatonClient.builder().connectString(connect)
                .sessionTimeout(b.session).connectionTimeout(Duration.ofSeconds(5)).errorPolicy(b.policy));
            clients.add(client);
        }
        Nemesis.Builder nemesis = Nemesis.builder(ensemble, seed).links(links).clients(clients)
            .faults(faults.get(0), faults.subList(1, faults.size()).toArray(Fault[]::new))
            .atLeast(PER_KIND)
            .quietBetween(Duration.ofMillis(200), Duration.ofMillis(800))
            .faultLength(Duration.ofMillis(500), Duration.ofMillis(1500))
            .clientPause(b.session.plusSeconds(1))
            .partitionLength(PARTITION)
            .log(line -> System.out.println("[" + recipe + "] " + line));
        this.nemesis = nemesis.build();
    }

    static Builder builder(String recipe, EmbeddedEnsemble ensemble) {
        return new Builder(recipe, ensemble);
    }

    /** The one {@link #childProcessEnsemble()} of this test JVM, started by the first class that asks. */
    private static EmbeddedEnsemble shared;
    /** The one {@link #partitionableEnsemble()} of this test JVM, started by the first class that asks. */
    private static EmbeddedEnsemble sharedPartitionable;

    /**
     * A three-server ensemble of child processes: KILL_LEADER is a real SIGKILL, PAUSE_SERVER a
     * real SIGSTOP. One ensemble serves every class of this JVM that asks (each test JVM of the
     * module runs one class at a time; each other JVM running {@link Paired} classes beside it
     * has its own): starting three server JVMs took 2.5-5 s per class. Each class
     * works in folders of its own, every run heals its faults when it closes, and this waits until
     * all three servers serve under one leader before handing the ensemble out, so each class
     * starts on a whole ensemble as before. Closed when the test JVM exits; classes do not close it.
     */
    static synchronized EmbeddedEnsemble childProcessEnsemble() {
        if (shared == null) {
            shared = startShared(EmbeddedEnsemble.builder().nodes(3).mode(ServerMode.CHILD_PROCESSES));
        }
        return whole(shared);
    }

    /**
     * {@link #childProcessEnsemble()} with every server-to-server route through a proxy, so that
     * runs on it can draw {@link #PARTITIONS}, and {@link #PEER_SYNC_LIMIT}. It heals server faults
     * as fast as the plain one (15 leader kills and restarts in one run of the lock and election
     * classes: 0.7-3.1 s), and those classes take as long on it (65 s and 51 s, against 67 s and
     * 54 s), since a peer proxy holds a connection to a quorum port not bound yet instead of
     * closing it (before, 5 of 15 heals took about 12 s). Shared by the classes that ask, as the
     * plain one is (their folders differ, and each gets it whole), instead of one started and
     * closed per class; a separate ensemble from the plain one, since its longer
     * {@code syncLimit} changes how long a stopped or cut-off server keeps serving.
     */
    static synchronized EmbeddedEnsemble partitionableEnsemble() {
        if (sharedPartitionable == null) {
            sharedPartitionable = startShared(EmbeddedEnsemble.builder().nodes(3).mode(ServerMode.CHILD_PROCESSES)
                .peerProxies(true).syncLimit(PEER_SYNC_LIMIT));
        }
        return whole(sharedPartitionable);
    }

    /** Starts an ensemble that lives until the test JVM exits. */
    private static EmbeddedEnsemble startShared(EmbeddedEnsemble.Builder builder) {
        EmbeddedEnsemble ensemble = builder.build();
        ensemble.start();
        Runtime.getRuntime().addShutdownHook(new Thread(ensemble::close, "baton-chaos-shared-ensemble-close"));
        return ensemble;
    }

    /** Waits until every server of {@code ensemble} serves under one leader, then returns it. */
    private static EmbeddedEnsemble whole(EmbeddedEnsemble ensemble) {
        org.awaitility.Awaitility.await("every server of the shared ensemble serving under one leader")
            .atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50)).until(ensemble::whole);
        return ensemble;
    }

    static long seed() {
        String given = System.getProperty("baton.chaos.seed", "");
        return given.isBlank() ? System.nanoTime() : Long.parseLong(given.trim());
    }

    static Duration duration() {
        return Duration.ofSeconds(Long.getLong("baton.chaos.seconds", 6));
    }

    BatonClient client(int i) {
        return clients.get(i);
    }

    /** The one server client {@code i} talks to, in a run built with {@link Builder#oneServerEach()}. */
    int serverOf(int i) {
        return i % ensemble.size() + 1;
    }

    /** Runs the nemesis (the workload, started by the caller, runs meanwhile), then checks liveness and stops the workers. */
    void runFaults() throws InterruptedException {
        report = nemesis.runFor(ran);
        healedNanos = System.nanoTime();
        stuck.addAll(workers.awaitProgress(healedNanos, SESSION.plus(LIVENESS_MARGIN)));
        workers.stop();
    }

    /** When the nemesis had healed everything (servers back, links whole). */
    long healedNanos() {
        return healedNanos;
    }

    /** Records a liveness problem found by the scenario itself (for workloads that are not {@link Workers}). */
    void stuck(String problem) {
        stuck.add(problem);
    }

    /**
     * The servers' truth, completed from their transaction logs (see {@link ServerTruth#settle()}):
     * call it to judge, once the workload has stopped.
     */
    ServerTruth truth() {
        truth.settle();
        return truth;
    }

    /**
     * Prints and records the verdict, then fails the test on any violation, on no progress, on a
     * surprise exception, on a stuck worker, or on a fault kind short of {@link #PER_KIND}.
     *
     * @param checks each invariant's name and the problems its checker found
     * @param notes extra lines for the report (a checker's summary, a fenced store's counts)
     */
    void verdict(long operations, Map<String, List<String>> checks, String... notes) throws IOException {
        Map<String, List<String>> all = new LinkedHashMap<>(checks);
        all.put("liveness after healing", List.copyOf(stuck));
        all.put("no undocumented exceptions", workers.surprises());
        truth.settle();
        all.put("the servers' logs read whole", truth.logProblems());
        List<String> lines = new ArrayList<>();
        lines.add("exceptions: " + workers.exceptionCounts());
        lines.add("server truth: " + truth.nodes().size() + " node lives, " + truth.fromLogs()
            + " creations or deletions only the logs knew, " + truth.inexactDeletions()
            + " deletions known only by a listing (logs read in " + truth.settleMillis() + " ms)");
        lines.addAll(List.of(notes));
        verdict(recipe, seed, ran, faults, report, operations, all, lines);
    }

    /**
     * The verdict of a run that drives its own {@link Nemesis} (a workload of client processes):
     * the same report and failure rules — violations, progress, every fault kind asked at least
     * {@link #PER_KIND} times — for the checks the run made itself.
     */
    static void verdict(String recipe, long seed, Duration ran, List<Fault> faults, Nemesis.Report report,
                        long operations, Map<String, List<String>> checks, List<String> notes) throws IOException {
        Map<String, List<String>> all = new LinkedHashMap<>(checks);
        List<String> shortfall = new ArrayList<>();
        if (report == null) {
            shortfall.add("the nemesis never ran");
        } else {
            report.shortfall().forEach((f, n) -> shortfall.add(f + " happened " + n + " time(s), fewer than " + PER_KIND));
        }
        all.put("every fault kind at least " + PER_KIND + " time(s)", shortfall);
        StringBuilder s = new StringBuilder();
        s.append("chaos ").append(recipe).append(": seed ").append(seed).append(", ").append(ran.toSeconds())
            .append(" s of faults at least, ").append(operations).append(" operations completed\n");
        s.append("  faults asked: ").append(faults).append('\n');
        s.append("  faults injected: ").append(report == null ? "none" : report.counts()).append('\n');
        for (String note : notes) {
            s.append("  ").append(note).append('\n');
        }
        Map<String, Integer> violations = new LinkedHashMap<>();
        all.forEach((name, problems) -> violations.put(name, problems.size()));
        s.append("  violations: ").append(violations).append('\n');
        all.forEach((name, problems) -> problems.stream().limit(10).forEach(p -> s.append("    ").append(name).append(": ")
            .append(p).append('\n')));
        boolean pass = violations.values().stream().allMatch(v -> v == 0) && operations > 0;
        s.append("  verdict: ").append(pass ? "PASS" : "FAIL").append(" (replay with -Dbaton.chaos.seed=").append(seed)
            .append(")\n");
        System.out.print(s);
        Files.createDirectories(reports());
        Files.writeString(reports().resolve(recipe + ".txt"), s.toString(), StandardCharsets.UTF_8);
        assertThat(operations).as("the %s workload made progress under faults (seed %d)", recipe, seed).isPositive();
        all.forEach((name, problems) -> assertThat(problems).as("%s: %s violations (seed %d)", recipe, name, seed).isEmpty());
    }

    /** Where verdicts (and client-process logs) go: {@code -Dbaton.chaos.reports}, else target/chaos-reports. */
    static Path reports() {
        return Path.of(System.getProperty("baton.chaos.reports", "target/chaos-reports"));
    }

    @Override
    public void close() throws InterruptedException {
        nemesis.close();
        workers.stop();
        clients.forEach(BatonClient::close);
        links.forEach(ClientLink::close);
        truth.close();
    }

    /** Configures a run. */
    static final class Builder {
        private final String recipe;
        private final EmbeddedEnsemble ensemble;
        private int clients = 5;
        private Duration session = SESSION;
        private ErrorPolicy policy = ErrorPolicy.STANDARD;
        private List<Fault> faults = List.of(Fault.KILL_LEADER, Fault.RESTART_SERVER, Fault.LOSE_QUORUM,
            Fault.PAUSE_SERVER, Fault.CUT_CLIENT, Fault.DELAY_CLIENT, Fault.PAUSE_CLIENT, Fault.EXPIRE_SESSION);
        private final List<String> roots = new ArrayList<>();
        private final List<Class<? extends Throwable>> documented = new ArrayList<>(CONNECTION_TROUBLE);
        private Duration duration = ChaosRun.duration();
        private boolean oneServerEach;
        /** Whether {@link #onlyFaults} fixed the faults: the soak profile adds none. */
        private boolean exactFaults;

        private Builder(String recipe, EmbeddedEnsemble ensemble) {
            this.recipe = recipe;
            this.ensemble = ensemble;
        }

        Builder clients(int n) {
            this.clients = n;
            return this;
        }

        Builder policy(ErrorPolicy p) {
            this.policy = p;
            return this;
        }

        /**
         * The fault kinds of this run (default: the eight in-JVM faults that need no peer proxies).
         * Under {@code -Dbaton.chaos.allFaults=true} (the soak profile) every run gets those eight
         * plus, on an ensemble with peer proxies, the three {@link #PARTITIONS}, whatever it asks
         * here. Partitions asked of an ensemble without peer proxies are left out.
         */
        Builder faults(Fault... kinds) {
            if (!ALL_FAULTS) {
                this.faults = Arrays.asList(kinds);
            }
            return this;
        }

        /**
         * The fault kinds of this run, also under the soak profile: for a scenario that injects
         * its own fault at a chosen moment and only paces itself with these, where any other fault
         * could defeat it (a canary whose breakage shows only if its own fault is the one that
         * happens: a leader killed while a follower is cut off leaves no majority to expire the
         * cut-off holder's session, and then the broken lock is not caught).
         */
        Builder onlyFaults(Fault... kinds) {
            this.faults = Arrays.asList(kinds);
            this.exactFaults = true;
            return this;
        }

        /**
         * Client {@code i} talks to server {@code i % size + 1} alone (through its link), so the
         * run knows which server a client depends on: {@link #serverOf(int)}.
         */
        Builder oneServerEach() {
            this.oneServerEach = true;
            return this;
        }

        /** Folders the server truth observes. */
        Builder watch(String... folders) {
            roots.addAll(Arrays.asList(folders));
            return this;
        }

        /** Exception types the recipe documents under faults, besides {@link #CONNECTION_TROUBLE}. */
        @SafeVarargs
        final Builder documented(Class<? extends Throwable>... types) {
            documented.addAll(Arrays.asList(types));
            return this;
        }

        /** How long the faults run at least (default {@link ChaosRun#duration()}): canaries run short. */
        Builder duration(Duration d) {
            this.duration = d;
            return this;
        }

        ChaosRun build() throws InterruptedException {
            if (ALL_FAULTS && !exactFaults) {
                List<Fault> all = new ArrayList<>(faults);
                PARTITIONS.stream().filter(f -> !all.contains(f)).forEach(all::add);
                faults = all;
            }
            return new ChaosRun(this);
        }
    }
}
