package dev.baton.test;

import dev.baton.framework.BatonClient;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.server.PartitionStyle;
import dev.baton.server.ServerMode;
import dev.baton.server.ServerRole;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * A seeded schedule of faults run against an ensemble and its clients for a bounded time.
 *
 * <p>Every choice — which fault, which server or client, how long it lasts, how long the quiet
 * between faults is — comes from one {@link Random} seeded by the caller, so a failing run can be
 * replayed with its seed (the interleaving with the clients' own work still varies). Each fault
 * is applied, held, and healed before the next one.
 *
 * <p><b>Every kind happens.</b> With {@link Builder#atLeast(int) atLeast(n)} the first {@code n}
 * rounds of the schedule each inject every kind the run asks for once, in a seeded random order;
 * after that each fault is drawn at random from those kinds — except that a run may
 * {@link Builder#insistOn insist on} one kind until it has what that kind is for. {@link #runFor} keeps injecting past
 * its duration until every kind has happened {@code n} times (up to {@link #runFor(Duration,
 * Duration) a limit}), and the {@link Report} says which kinds fell short, so a run that did not
 * exercise a fault cannot pass for one that survived it. The rounds are built from whatever
 * {@link Fault} values the run is given, so a new kind joins them without a change here. The log has a line when a fault begins and
 * one ({@code healed <fault> after <seconds>}) once its heal has returned, so a step that hangs is
 * the one without the second line. {@link #stop()} heals whatever is in effect, brings every
 * server back and returns what was injected.
 *
 * <pre>{@code
 * try (Nemesis nemesis = Nemesis.builder(ensemble, seed).links(links).clients(clients).build()) {
 *     nemesis.start();
 *     ... clients work ...
 *     Nemesis.Report report = nemesis.stop();
 * }
 * }</pre>
 */
public final class Nemesis implements AutoCloseable {
    /** Kinds of fault. */
    public enum Fault {
        /** SIGKILL (child processes) or stop (in-process) the leader server; restart it after. */
        KILL_LEADER,
        /** Stop one server, restart it after. */
        RESTART_SERVER,
        /** Restart every server, one after the other. */
        ROLLING_RESTART,
        /** Stop a majority of servers (no quorum: no writes), then bring them back. */
        LOSE_QUORUM,
        /** SIGSTOP one server (child-process ensembles only), SIGCONT after. */
        PAUSE_SERVER,
        /** Cut one client's connections, heal after. */
        CUT_CLIENT,
        /** Add latency to one client's connections. */
        DELAY_CLIENT,
        /** Freeze one client's traffic for longer than its session timeout, then release it. */
        PAUSE_CLIENT,
        /** Make the servers expire one client's session. */
        EXPIRE_SESSION,
        /**
         * SIGSTOP one {@link ClientProcess} — its whole JVM freezes — for the client pause length
         * (longer than its session timeout), then SIGCONT: it wakes believing what it believed.
         */
        PAUSE_PROCESS,
        /** SIGKILL one {@link ClientProcess}, and start a fresh one after the fault length. */
        KILL_PROCESS,
        /**
         * Cut the leader off from the other servers (ensembles built with peer proxies), heal
         * after. Each partition fault closes connections or drops traffic silently, drawn at random.
         */
        ISOLATE_LEADER,
        /** Cut one follower off from the other servers, heal after. */
        ISOLATE_FOLLOWER,
        /** Split the servers into a minority and a majority (1 and 2 of 3, 2 and 3 of 5), heal after. */
        SPLIT_SERVERS
    }

    /**
     * What a run injected: counts by fault and the log of each, with times since the start.
     *
     * @param seed the schedule's seed, to replay the run
     * @param counts how many times each kind was injected; a kind never injected is absent
     * @param log the nemesis's log lines ({@code t+<seconds>s ...}), oldest first
     * @param asked the kinds the run drew from: those asked for that this ensemble and these clients allow
     * @param minimum how many times each kind in {@code asked} was guaranteed ({@link Builder#atLeast(int)})
     */
    public record Report(long seed, Map<Fault, Integer> counts, List<String> log, List<Fault> asked, int minimum) {
        /**
         * How many faults the run injected, of every kind.
         *
         * @return the sum of {@link #counts()}
         */
        public int total() {
            return counts.values().stream().mapToInt(Integer::intValue).sum();
        }

        /**
         * The kinds the run drew from that happened fewer than {@code minimum} times: a test
         * asserts this is empty so that it cannot pass without the faults it meant to survive.
         *
         * @return each such kind with how many times it did happen (0 included); empty when
         *     every kind met the guarantee, and always with {@code minimum} 0
         */
        public Map<Fault, Integer> shortfall() {
            Map<Fault, Integer> out = new EnumMap<>(Fault.class);
            for (Fault f : asked) {
                int n = counts.getOrDefault(f, 0);
                if (n < minimum) {
                    out.put(f, n);
                }
            }
            return out;
        }

        @Override
        public String toString() {
            return "seed " + seed + ", " + total() + " faults " + counts + (minimum > 0 ? ", at least " + minimum + " of each" : "");
        }
    }

    private final EmbeddedEnsemble ensemble;
    private final long seed;
    private final Random random;
    private final List<Fault> faults;
    private final List<ClientLink> links;
    private final List<BatonClient> clients;
    private final List<ClientProcess> processes;
    private final java.util.function.ToIntFunction<Random> pickProcess;
    private final Duration minQuiet;
    private final Duration maxQuiet;
    private final Duration minFault;
    private final Duration maxFault;
    private final Duration clientPauseLength;
    /** How long a partition between servers lasts; null: drawn like any fault. */
    private final Duration partitionLength;
    private final List<PartitionStyle> partitionStyles;
    private final int minimum;
    /** The kind drawn every time after the guaranteed rounds while {@link #insistedDone} is false; null: none. */
    private final Fault insisted;
    private final BooleanSupplier insistedDone;
    /** The faults still to inject in the current round of the guaranteed schedule. */
    private final List<Fault> round = new ArrayList<>();
    private int rounds;
    private final Consumer<String> out;
    private final java.util.function.IntConsumer onExpiring;
    private final java.util.function.IntConsumer onExpired;
    private final boolean expireOnlyConnected;
    private final Map<Fault, Integer> counts = new EnumMap<>(Fault.class);
    private final List<String> log = new CopyOnWriteArrayList<>();
    private final Object lock = new Object();
    private Thread runner;
    private volatile boolean stopping;
    /** What ended the fault loop before {@link #stop()}, if anything did. */
    private volatile RuntimeException died;
    private long startNanos;
    private Runnable healCurrent;

    /** How long a heal of a partition waits for the servers to agree again before the schedule goes on. */
    private static final Duration REJOIN_WAIT = Duration.ofSeconds(15);

    private Nemesis(Builder b) {
        this.ensemble = b.ensemble;
        this.seed = b.seed;
        this.random = new Random(b.seed);
        this.links = List.copyOf(b.links);
        this.clients = List.copyOf(b.clients);
        this.processes = List.copyOf(b.processes);
        this.pickProcess = b.pickProcess;
        this.minQuiet = b.minQuiet;
        this.maxQuiet = b.maxQuiet;
        this.minFault = b.minFault;
        this.maxFault = b.maxFault;
        this.clientPauseLength = b.clientPauseLength;
        this.partitionLength = b.partitionLength;
        this.partitionStyles = List.copyOf(b.partitionStyles);
        this.minimum = b.minimum;
        this.insisted = b.insisted;
        this.insistedDone = b.insistedDone;
        this.out = b.out;
        this.onExpiring = b.onExpiring;
        this.onExpired = b.onExpired;
        this.expireOnlyConnected = b.expireOnlyConnected;
        List<Fault> usable = new ArrayList<>();
        for (Fault f : b.faults) {
            if (usable(f)) {
                usable.add(f);
            }
        }
        if (usable.isEmpty()) {
            throw new IllegalArgumentException("none of the faults " + b.faults + " can be injected here"
                + " (server faults need 3 or more servers; client faults need clients; PAUSE_SERVER needs child processes;"
                + " partitions need peerProxies(true))");
        }
        this.faults = usable;
        if (insisted != null && !usable.contains(insisted)) {
            throw new IllegalArgumentException("the nemesis was told to insist on " + insisted + ", which is not among the faults"
                + " it can inject here: " + usable);
        }
    }

    private boolean usable(Fault f) {
        boolean quorum = ensemble.size() >= 3;
        return switch (f) {
            case KILL_LEADER, RESTART_SERVER, ROLLING_RESTART, LOSE_QUORUM -> quorum;
            case PAUSE_SERVER -> quorum && ensemble.mode() == ServerMode.CHILD_PROCESSES;
            case CUT_CLIENT, DELAY_CLIENT, PAUSE_CLIENT -> !links.isEmpty();
            case EXPIRE_SESSION -> !clients.isEmpty();
            case PAUSE_PROCESS, KILL_PROCESS -> !processes.isEmpty();
            case ISOLATE_LEADER, ISOLATE_FOLLOWER, SPLIT_SERVERS -> quorum && ensemble.peerProxies();
        };
    }

    /**
     * A nemesis for {@code ensemble} whose faults are drawn from {@code seed}.
     *
     * @param ensemble the ensemble whose servers the server faults act on
     * @param seed the seed of the schedule: the same seed draws the same faults
     * @return a builder
     */
    public static Builder builder(EmbeddedEnsemble ensemble, long seed) {
        return new Builder(ensemble, seed);
    }

    /** {@return the seed of the schedule (printed when the nemesis starts, to replay a run)} */
    public long seed() {
        return seed;
    }

    /** Starts injecting faults in the background. */
    public synchronized void start() {
        if (runner != null) {
            throw new IllegalStateException("nemesis already started");
        }
        startNanos = System.nanoTime();
        say("nemesis seed " + seed + ", faults " + faults);
        runner = new Thread(this::run, "baton-nemesis");
        runner.setDaemon(true);
        runner.start();
    }

    /**
     * Starts, injects faults for {@code duration} (the caller's workload runs meanwhile on its own
     * threads), then stops and heals. The bounded run of a chaos test.
     *
     * @param duration how long to inject faults
     * @return what was injected
     * @throws InterruptedException if the calling thread is interrupted while the faults run
     */
    public Report runFor(Duration duration) throws InterruptedException {
        return runFor(duration, duration.multipliedBy(3).plusMinutes(1));
    }

    /**
     * As {@link #runFor(Duration)}, but keeps injecting after {@code duration} until every kind
     * has happened the {@link Builder#atLeast(int) guaranteed} number of times, for at most
     * {@code limit} in all (the report's {@link Report#shortfall()} then names what is missing).
     *
     * @param duration how long to inject faults whatever the counts
     * @param limit the longest the run may take, counted from its start; a limit shorter than
     *     {@code duration} does not cut it short
     * @return what was injected
     * @throws IllegalStateException if the nemesis was already started, or a fault step failed
     *     and ended the schedule early (see {@link #stop()})
     * @throws InterruptedException if the calling thread is interrupted while the faults run (they
     *     go on until {@link #stop()} or {@link #close()})
     */
    public Report runFor(Duration duration, Duration limit) throws InterruptedException {
        start();
        quiet(duration);
        long deadline = startNanos + limit.toNanos();
        while (!stopping && died == null && !minimumMet() && System.nanoTime() - deadline < 0) {
            quiet(Duration.ofMillis(100));
        }
        return stop();
    }

    /**
     * Whether every kind the run draws from has happened the {@link Builder#atLeast(int)
     * guaranteed} number of times so far: a test that drives the schedule itself ({@link #start()}
     * and {@link #stop()}) waits for this before it stops, as {@link #runFor(Duration, Duration)} does.
     *
     * @return true once no kind is short of the minimum (always true with a minimum of 0)
     */
    public boolean minimumMet() {
        synchronized (counts) {
            return faults.stream().allMatch(f -> counts.getOrDefault(f, 0) >= minimum);
        }
    }

    /**
     * Stops injecting, heals everything, and reports what was injected.
     *
     * @return what was injected
     * @throws IllegalStateException after healing, if a fault step failed and ended the schedule
     *     early (a run that quietly stopped injecting would pass for a run that survived faults)
     * @throws InterruptedException if the calling thread is interrupted while it waits for the fault loop to
     *     end
     */
    public Report stop() throws InterruptedException {
        stopping = true;
        synchronized (lock) {
            lock.notifyAll();
        }
        Thread t = runner;
        if (t != null) {
            t.join(Duration.ofMinutes(2).toMillis());
            if (t.isAlive()) {
                // a fault step that never returned: say where it is stuck before healing around it
                StringBuilder at = new StringBuilder();
                for (StackTraceElement frame : t.getStackTrace()) {
                    at.append("\n    at ").append(frame);
                }
                say("a fault step has not returned after 2 minutes; the nemesis thread is" + at);
            }
        }
        healAll();
        RuntimeException failure = died;
        if (failure != null) {
            throw new IllegalStateException("the nemesis (seed " + seed + ") stopped injecting early: " + failure, failure);
        }
        synchronized (counts) {
            return new Report(seed, new EnumMap<>(counts), List.copyOf(log), List.copyOf(faults), minimum);
        }
    }

    /** {@return whether a fault step failed and ended the schedule early ({@link #stop()} then throws)} */
    public boolean failed() {
        return died != null;
    }

    @Override
    public void close() throws InterruptedException {
        if (!stopping) {
            stop();
        }
    }

    private void run() {
        try {
            while (!stopping) {
                if (!quiet(between(minQuiet, maxQuiet))) {
                    break;
                }
                Fault fault = next();
                Duration length = between(minFault, maxFault);
                long began = System.nanoTime();
                inject(fault, length);
                say(String.format("healed %s after %.1fs", fault, (System.nanoTime() - began) / 1e9));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            died = e;
            say("nemesis stopped by " + e);
        }
    }

    /** How long EXPIRE_SESSION waits for a connected client under {@link Builder#expireOnlyConnected()}. */
    private static final Duration CONNECTED_TARGET_WAIT = Duration.ofSeconds(10);

    /**
     * The client whose session EXPIRE_SESSION ends: any client, or under
     * {@link Builder#expireOnlyConnected()} one whose handle is connected, waiting up to
     * {@link #CONNECTED_TARGET_WAIT} for one (faults do not overlap, but a client can still be
     * reconnecting after the previous fault was healed). -1 if none was connected in time.
     */
    private int expiryTarget() throws InterruptedException {
        if (!expireOnlyConnected) {
            return random.nextInt(clients.size());
        }
        long deadline = System.nanoTime() + CONNECTED_TARGET_WAIT.toNanos();
        while (!stopping) {
            List<Integer> connected = new ArrayList<>();
            for (int i = 0; i < clients.size(); i++) {
                if (clients.get(i).zookeeper().getState().isConnected()) {
                    connected.add(i);
                }
            }
            if (!connected.isEmpty()) {
                return connected.get(random.nextInt(connected.size()));
            }
            if (System.nanoTime() - deadline >= 0) {
                break;
            }
            quiet(Duration.ofMillis(50));
        }
        return -1;
    }

    private void inject(Fault fault, Duration length) throws InterruptedException {
        synchronized (counts) {
            counts.merge(fault, 1, Integer::sum);
        }
        switch (fault) {
            case KILL_LEADER -> {
                int leader = ensemble.leaderId();
                say(fault + " server " + leader + " for " + length);
                ensemble.kill(leader);
                hold(length, () -> ensemble.restart(leader));
            }
            case RESTART_SERVER -> {
                int id = 1 + random.nextInt(ensemble.size());
                say(fault + " server " + id + " down for " + length);
                ensemble.stop(id);
                hold(length, () -> ensemble.restart(id));
            }
            case ROLLING_RESTART -> {
                say(fault.toString());
                for (int id = 1; id <= ensemble.size() && !stopping; id++) {
                    ensemble.restart(id);
                }
            }
            case LOSE_QUORUM -> {
                List<Integer> down = new ArrayList<>();
                for (int id = 1; down.size() <= ensemble.size() / 2; id++) {
                    down.add(id);
                }
                say(fault + " servers " + down + " down for " + length);
                down.forEach(ensemble::stop);
                hold(length, () -> down.forEach(ensemble::restart));
            }
            case PAUSE_SERVER -> {
                int id = 1 + random.nextInt(ensemble.size());
                say(fault + " server " + id + " frozen for " + length);
                ensemble.pause(id);
                hold(length, () -> ensemble.resume(id));
            }
            case CUT_CLIENT -> {
                int c = random.nextInt(links.size());
                say(fault + " client " + c + " for " + length);
                links.get(c).cut();
                hold(length, () -> links.get(c).heal());
            }
            case DELAY_CLIENT -> {
                int c = random.nextInt(links.size());
                Duration latency = Duration.ofMillis(20 + random.nextInt(200));
                say(fault + " client " + c + " by " + latency + " for " + length);
                links.get(c).delay(latency);
                hold(length, () -> links.get(c).delay(Duration.ZERO));
            }
            case PAUSE_CLIENT -> {
                int c = random.nextInt(links.size());
                say(fault + " client " + c + " frozen for " + clientPauseLength);
                links.get(c).pause();
                hold(clientPauseLength, () -> links.get(c).resume());
            }
            case EXPIRE_SESSION -> {
                int c = expiryTarget();
                if (c < 0) {
                    synchronized (counts) {
                        counts.merge(fault, -1, Integer::sum);
                    }
                    say(fault + " skipped: no client was connected to hear it within " + CONNECTED_TARGET_WAIT);
                    return;
                }
                say(fault + " client " + c);
                // the servers may delete the session's ephemeral nodes at any moment from here on,
                // and other clients may act on that before the kill returns
                onExpiring.accept(c);
                SessionKiller.expire(clients.get(c), ensemble.connectString(), Duration.ofSeconds(30));
                onExpired.accept(c);
            }
            case PAUSE_PROCESS -> {
                ClientProcess process = process();
                say(fault + " " + process.name() + " frozen for " + clientPauseLength);
                process.pause();
                hold(clientPauseLength, process::resume);
            }
            case KILL_PROCESS -> {
                ClientProcess process = process();
                say(fault + " " + process.name() + ", a fresh one after " + length);
                process.kill();
                hold(length, () -> restart(process));
            }
            case ISOLATE_LEADER -> partition(fault, Set.of(ensemble.leaderId()), length);
            case ISOLATE_FOLLOWER -> {
                int leader = ensemble.leaderId();
                List<Integer> followers = new ArrayList<>();
                for (int id = 1; id <= ensemble.size(); id++) {
                    if (id != leader) {
                        followers.add(id);
                    }
                }
                partition(fault, Set.of(followers.get(random.nextInt(followers.size()))), length);
            }
            case SPLIT_SERVERS -> {
                List<Integer> ids = new ArrayList<>();
                for (int id = 1; id <= ensemble.size(); id++) {
                    ids.add(id);
                }
                java.util.Collections.shuffle(ids, random);
                partition(fault, Set.copyOf(ids.subList(0, ensemble.size() / 2)), length);
            }
        }
    }

    /**
     * Cuts {@code side} off from the other servers (for the partition length if one was set, else
     * {@code drawn}), in one of the partition styles, then heals and waits, boundedly, for every
     * server to serve again under one leader, so that the next fault starts from a whole ensemble.
     */
    private void partition(Fault fault, Set<Integer> side, Duration drawn) throws InterruptedException {
        Duration length = partitionLength != null ? partitionLength : drawn;
        PartitionStyle style = partitionStyles.get(random.nextInt(partitionStyles.size()));
        say(fault + " servers " + side + " cut off (" + style + ") for " + length);
        ensemble.partition(side, style);
        hold(length, () -> {
            ensemble.healPartitions();
            awaitInSync();
        });
    }

    /**
     * After a heal: the cut-off side rejoins (an election retry, at most 2 s apart): every server
     * serving, one leader. A side that has not rejoined in {@link #REJOIN_WAIT} ends the schedule loudly.
     */
    private void awaitInSync() {
        try {
            org.awaitility.Awaitility.await().atMost(REJOIN_WAIT).pollInterval(Duration.ofMillis(50)).ignoreExceptions()
                .until(ensemble::whole);
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            throw new IllegalStateException("the servers had not rejoined under one leader " + REJOIN_WAIT.toSeconds()
                + " s after the partition healed: " + ensemble, e);
        }
    }

    /** The client process a process fault hits. */
    private ClientProcess process() {
        int p = pickProcess == null ? random.nextInt(processes.size()) : pickProcess.applyAsInt(random);
        if (p < 0 || p >= processes.size()) {
            throw new IllegalStateException("the process picker chose " + p + "; there are " + processes.size() + " processes");
        }
        return processes.get(p);
    }

    private static void restart(ClientProcess process) {
        try {
            process.restart();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while restarting " + process.name(), e);
        }
    }

    /**
     * The next fault: during the first {@code minimum} rounds, the rest of the current round (each
     * round every kind once, shuffled by the seed); after them the kind insisted on while the run
     * still lacks what it is for ({@link Builder#insistOn}), else any kind at random.
     */
    private Fault next() {
        if (rounds < minimum || !round.isEmpty()) {
            if (round.isEmpty()) {
                round.addAll(faults);
                java.util.Collections.shuffle(round, random);
                rounds++;
            }
            return round.remove(round.size() - 1);
        }
        if (insisted != null && !insistedDone.getAsBoolean()) {
            // no draw from the random: the rest of the schedule is the seed's whatever this took
            return insisted;
        }
        return faults.get(random.nextInt(faults.size()));
    }

    /** Keeps a fault in effect for {@code length} (or until stop), then heals it. */
    private void hold(Duration length, Runnable heal) throws InterruptedException {
        synchronized (lock) {
            healCurrent = heal;
        }
        quiet(length);
        synchronized (lock) {
            if (healCurrent != null) {
                healCurrent = null;
                heal.run();
            }
        }
    }

    /** Waits {@code d} unless stopped first; returns false when stopped. */
    private boolean quiet(Duration d) throws InterruptedException {
        long deadline = System.nanoTime() + d.toNanos();
        synchronized (lock) {
            while (!stopping) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return true;
                }
                lock.wait(Math.max(1, left / 1_000_000));
            }
        }
        return false;
    }

    private void healAll() {
        Runnable heal;
        synchronized (lock) {
            heal = healCurrent;
            healCurrent = null;
        }
        RuntimeException failed = null;
        if (heal != null) {
            try {
                heal.run();
            } catch (RuntimeException e) {
                failed = e; // heal everything else first, then say so
            }
        }
        links.forEach(ClientLink::resume);
        links.forEach(ClientLink::heal);
        processes.forEach(ClientProcess::resume);
        if (ensemble.peerProxies()) {
            ensemble.healPartitions();
        }
        for (int id = 1; id <= ensemble.size(); id++) {
            ServerRole role = ensemble.role(id);
            if (role == ServerRole.PAUSED) {
                ensemble.resume(id);
            } else if (role == ServerRole.STOPPED) {
                ensemble.restart(id);
            }
        }
        say("healed");
        if (failed != null) {
            throw failed;
        }
    }

    private Duration between(Duration min, Duration max) {
        long span = max.toMillis() - min.toMillis();
        return min.plusMillis(span <= 0 ? 0 : (long) (random.nextDouble() * span));
    }

    private void say(String what) {
        String line = String.format("t+%.1fs %s", (System.nanoTime() - startNanos) / 1e9, what);
        log.add(line);
        out.accept(line);
    }

    /** Configures a {@link Nemesis}. */
    public static final class Builder {
        private final EmbeddedEnsemble ensemble;
        private final long seed;
        private Set<Fault> faults = EnumSet.allOf(Fault.class);
        private final List<ClientLink> links = new ArrayList<>();
        private final List<BatonClient> clients = new ArrayList<>();
        private final List<ClientProcess> processes = new ArrayList<>();
        private java.util.function.ToIntFunction<Random> pickProcess;
        private Duration minQuiet = Duration.ofMillis(500);
        private Duration maxQuiet = Duration.ofSeconds(2);
        private Duration minFault = Duration.ofMillis(500);
        private Duration maxFault = Duration.ofSeconds(3);
        private Duration clientPauseLength = Duration.ofSeconds(5);
        private Duration partitionLength;
        private List<PartitionStyle> partitionStyles = List.of(PartitionStyle.CLOSE, PartitionStyle.SILENT);
        private int minimum;
        private Fault insisted;
        private BooleanSupplier insistedDone;
        private Consumer<String> out = System.out::println;
        private java.util.function.IntConsumer onExpiring = c -> { };
        private java.util.function.IntConsumer onExpired = c -> { };
        private boolean expireOnlyConnected;

        private Builder(EmbeddedEnsemble ensemble, long seed) {
            this.ensemble = Objects.requireNonNull(ensemble, "ensemble");
            this.seed = seed;
        }

        /**
         * The kinds of fault to draw from (default: every kind this ensemble and these clients allow).
         *
         * @param first a kind of fault
         * @param more more kinds
         * @return this builder
         */
        public Builder faults(Fault first, Fault... more) {
            this.faults = EnumSet.of(first, more);
            return this;
        }

        /**
         * Guarantees every kind of fault of the run at least {@code n} times: the first {@code n}
         * rounds inject each kind once, in a seeded order, and {@link Nemesis#runFor} runs on
         * until they have. Default 0 (every draw at random).
         *
         * @param n how many times each kind must happen at least
         * @return this builder
         */
        public Builder atLeast(int n) {
            if (n < 0) {
                throw new IllegalArgumentException("the guaranteed count per fault kind must not be negative, was " + n);
            }
            this.minimum = n;
            return this;
        }

        /**
         * Keeps injecting {@code fault} until {@code done} says the run has what that kind is for:
         * once the guaranteed rounds ({@link #atLeast}) are over, every fault is {@code fault} for
         * as long as {@code done} returns false (asked before each draw), and the draws are at
         * random again after. For a kind that does its work only when it lands at the right moment
         * (a process paused in the middle of a lock hold): a miss is tried again instead of being
         * left to the random draws, which may never come back to it before the run ends.
         *
         * @param fault one of the run's kinds
         * @param done whether the run has what {@code fault} is for; called on the nemesis's thread
         * @return this builder
         */
        public Builder insistOn(Fault fault, BooleanSupplier done) {
            this.insisted = Objects.requireNonNull(fault, "fault");
            this.insistedDone = Objects.requireNonNull(done, "done");
            return this;
        }

        /**
         * Client connections the client faults act on (one link per client).
         *
         * @param clientLinks one link per client, in the clients' order
         * @return this builder
         */
        public Builder links(List<ClientLink> clientLinks) {
            links.addAll(clientLinks);
            return this;
        }

        /**
         * Clients whose sessions EXPIRE_SESSION may end.
         *
         * @param sessionClients the clients, in the order {@link #onExpiring} and {@link #onExpired} number
         *     them
         * @return this builder
         */
        public Builder clients(List<BatonClient> sessionClients) {
            clients.addAll(sessionClients);
            return this;
        }

        /**
         * Client processes that PAUSE_PROCESS freezes and KILL_PROCESS kills and starts again.
         *
         * @param clientProcesses the processes
         * @return this builder
         */
        public Builder processes(List<ClientProcess> clientProcesses) {
            processes.addAll(clientProcesses);
            return this;
        }

        /**
         * Chooses which client process PAUSE_PROCESS or KILL_PROCESS hits: given the nemesis's
         * seeded {@link Random}, an index into the processes (default: any, uniformly). A lock
         * test passes one that prefers the current holder, so that a pause lands mid-hold.
         *
         * @param picker the choice of process, from the nemesis's random
         * @return this builder
         */
        public Builder pickProcess(java.util.function.ToIntFunction<Random> picker) {
            this.pickProcess = Objects.requireNonNull(picker, "picker");
            return this;
        }

        /**
         * Quiet time between faults. Default 0.5–2 s.
         *
         * @param min the shortest quiet time
         * @param max the longest quiet time, at least {@code min}
         * @return this builder
         */
        public Builder quietBetween(Duration min, Duration max) {
            this.minQuiet = min;
            this.maxQuiet = max;
            return this;
        }

        /**
         * How long a fault lasts. Default 0.5–3 s.
         *
         * @param min the shortest fault
         * @param max the longest fault, at least {@code min}
         * @return this builder
         */
        public Builder faultLength(Duration min, Duration max) {
            this.minFault = min;
            this.maxFault = max;
            return this;
        }

        /**
         * How long PAUSE_CLIENT freezes a client's traffic and PAUSE_PROCESS a client process: make
         * it longer than the clients' session timeout. Default 5 s.
         *
         * @param length how long the pause lasts
         * @return this builder
         */
        public Builder clientPause(Duration length) {
            this.clientPauseLength = length;
            return this;
        }

        /**
         * How long ISOLATE_LEADER, ISOLATE_FOLLOWER and SPLIT_SERVERS keep the servers apart. By
         * default a partition is drawn like any fault ({@link #faultLength}); make it longer than
         * the clients' session timeout for the case the partition faults exist for: the majority
         * expires the sessions of clients on the cut-off side while, under a silent partition, the
         * cut-off servers still answer them.
         *
         * @param length how long each partition lasts
         * @return this builder
         */
        public Builder partitionLength(Duration length) {
            this.partitionLength = Objects.requireNonNull(length, "length");
            return this;
        }

        /**
         * The styles a partition is drawn from (default both, at random). {@link PartitionStyle#SILENT}
         * alone makes every partition the kind a cut-off follower answers through.
         *
         * @param first a style
         * @param more more styles
         * @return this builder
         */
        public Builder partitionStyles(PartitionStyle first, PartitionStyle... more) {
            List<PartitionStyle> styles = new ArrayList<>();
            styles.add(first);
            styles.addAll(List.of(more));
            this.partitionStyles = List.copyOf(styles);
            return this;
        }

        /**
         * Told the index of a client whose session EXPIRE_SESSION is about to end. The servers
         * delete the session's ephemeral nodes while the kill runs, and other clients can see that
         * and act on it before the kill returns: a history that must count the client's holds as
         * lost no later than anyone could take their place records the loss here.
         *
         * @param listener told the client's index
         * @return this builder
         */
        public Builder onExpiring(java.util.function.IntConsumer listener) {
            this.onExpiring = Objects.requireNonNull(listener, "onExpiring");
            return this;
        }

        /**
         * Told the index of a client whose session EXPIRE_SESSION just ended — the servers have
         * committed the end, so whatever it held is gone (including anything granted to it while
         * the kill ran; see {@link #onExpiring}).
         *
         * @param listener told the client's index
         * @return this builder
         */
        public Builder onExpired(java.util.function.IntConsumer listener) {
            this.onExpired = Objects.requireNonNull(listener, "onExpired");
            return this;
        }

        /**
         * EXPIRE_SESSION ends only the session of a client that is connected at that moment (it
         * waits for one). By default any client. A connected client is not told more than a
         * disconnected one, though: the servers drop its connection as they delete its nodes, and
         * the deletion events usually go down with the connection, so it hears Disconnected about
         * 100 ms later and its session's expiry only when it reconnects. A run judged under a
         * policy that rides through disconnects (the LEASE leadership policy) cannot use this
         * fault either way; see docs/election.md, "A session ended by force".
         *
         * @return this builder
         */
        public Builder expireOnlyConnected() {
            this.expireOnlyConnected = true;
            return this;
        }

        /**
         * Where the fault log goes as it happens (default: standard output).
         *
         * @param sink where the fault log goes as it happens (default: standard output)
         * @return this builder
         */
        public Builder log(Consumer<String> sink) {
            this.out = Objects.requireNonNull(sink, "log");
            return this;
        }

        /** {@return a nemesis with these settings, not yet started} */
        public Nemesis build() {
            return new Nemesis(this);
        }
    }
}
