package dev.baton.test;

import dev.baton.framework.BatonClient;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.server.PartitionStyle;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
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

    private final FaultLoop loop;

    private Nemesis(Builder b) {
        this.loop = new FaultLoop(b);
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
        return loop.seed();
    }

    /** Starts injecting faults in the background. */
    public synchronized void start() {
        loop.start();
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
        return loop.runOn(duration, limit);
    }

    /**
     * Whether every kind the run draws from has happened the {@link Builder#atLeast(int)
     * guaranteed} number of times so far: a test that drives the schedule itself ({@link #start()}
     * and {@link #stop()}) waits for this before it stops, as {@link #runFor(Duration, Duration)} does.
     *
     * @return true once no kind is short of the minimum (always true with a minimum of 0)
     */
    public boolean minimumMet() {
        return loop.minimumMet();
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
        return loop.stop();
    }

    /** {@return whether a fault step failed and ended the schedule early ({@link #stop()} then throws)} */
    public boolean failed() {
        return loop.failed();
    }

    @Override
    public void close() throws InterruptedException {
        if (!loop.stopping()) {
            stop();
        }
    }

    /** Configures a {@link Nemesis}. */
    public static final class Builder {
        // read by the package's fault classes (FaultLoop and what it builds) when the nemesis is built
        final EmbeddedEnsemble ensemble;
        final long seed;
        Set<Fault> faults = EnumSet.allOf(Fault.class);
        final List<ClientLink> links = new ArrayList<>();
        final List<BatonClient> clients = new ArrayList<>();
        final List<ClientProcess> processes = new ArrayList<>();
        java.util.function.ToIntFunction<Random> pickProcess;
        Duration minQuiet = Duration.ofMillis(500);
        Duration maxQuiet = Duration.ofSeconds(2);
        Duration minFault = Duration.ofMillis(500);
        Duration maxFault = Duration.ofSeconds(3);
        Duration clientPauseLength = Duration.ofSeconds(5);
        Duration partitionLength;
        List<PartitionStyle> partitionStyles = List.of(PartitionStyle.CLOSE, PartitionStyle.SILENT);
        int minimum;
        Fault insisted;
        BooleanSupplier insistedDone;
        Consumer<String> out = System.out::println;
        java.util.function.IntConsumer onExpiring = c -> { };
        java.util.function.IntConsumer onExpired = c -> { };
        boolean expireOnlyConnected;

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
