package dev.baton.test;

import dev.baton.test.Nemesis.Fault;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The running of a {@link Nemesis}: a background thread that waits the drawn quiet, draws the
 * next fault and its length ({@link FaultSchedule}), injects it ({@link ServerFaults},
 * {@link ClientFaults}) and logs its heal, until stopped; then heals whatever is left.
 *
 * <p>Every kind of fault is named in two switches here, one saying whether it can be injected on
 * this ensemble and these clients and one injecting it: a new kind breaks the compilation of both.
 */
final class FaultLoop {
    private final long seed;
    private final FaultPacing pacing = new FaultPacing();
    private final FaultLog log;
    private final ServerFaults servers;
    private final ClientFaults clients;
    private final FaultSchedule schedule;
    private Thread runner;
    /** What ended the fault loop before {@link #stop()}, if anything did. */
    private volatile RuntimeException died;

    /**
     * The loop {@code b} describes.
     *
     * @throws IllegalArgumentException if none of the faults asked for can be injected here, or
     *     the kind insisted on cannot
     */
    FaultLoop(Nemesis.Builder b) {
        this.seed = b.seed;
        Random random = new Random(b.seed);
        this.log = new FaultLog(b.out);
        this.servers = new ServerFaults(b, random, pacing, log);
        this.clients = new ClientFaults(b, random, pacing, log);
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
        this.schedule = new FaultSchedule(b, random, usable);
    }

    long seed() {
        return seed;
    }

    boolean stopping() {
        return pacing.stopping();
    }

    boolean failed() {
        return died != null;
    }

    boolean minimumMet() {
        return log.reached(schedule.kinds(), schedule.minimum());
    }

    /** Starts the fault thread; see {@link Nemesis#start()}. */
    synchronized void start() {
        if (runner != null) {
            throw new IllegalStateException("nemesis already started");
        }
        log.start();
        log.say("nemesis seed " + seed + ", faults " + schedule.kinds());
        runner = new Thread(this::run, "baton-nemesis");
        runner.setDaemon(true);
        runner.start();
    }

    /** After {@link #start()}: lets the faults run as {@link Nemesis#runFor(Duration, Duration)} says, then stops. */
    Nemesis.Report runOn(Duration duration, Duration limit) throws InterruptedException {
        pacing.quiet(duration);
        long deadline = log.startNanos() + limit.toNanos();
        while (!pacing.stopping() && died == null && !minimumMet() && System.nanoTime() - deadline < 0) {
            pacing.quiet(Duration.ofMillis(100));
        }
        return stop();
    }

    /** Stops the thread, heals everything and reports; see {@link Nemesis#stop()}. */
    Nemesis.Report stop() throws InterruptedException {
        pacing.stop();
        Thread t = runner;
        if (t != null) {
            t.join(Duration.ofMinutes(2).toMillis());
            if (t.isAlive()) {
                // a fault step that never returned: say where it is stuck before healing around it
                StringBuilder at = new StringBuilder();
                for (StackTraceElement frame : t.getStackTrace()) {
                    at.append("\n    at ").append(frame);
                }
                log.say("a fault step has not returned after 2 minutes; the nemesis thread is" + at);
            }
        }
        healAll();
        RuntimeException failure = died;
        if (failure != null) {
            throw new IllegalStateException("the nemesis (seed " + seed + ") stopped injecting early: " + failure, failure);
        }
        return log.report(seed, schedule.kinds(), schedule.minimum());
    }

    private void run() {
        try {
            while (!pacing.stopping()) {
                if (!pacing.quiet(schedule.quiet())) {
                    break;
                }
                Fault fault = schedule.next();
                Duration length = schedule.faultLength();
                long began = System.nanoTime();
                log.count(fault);
                inject(fault, length);
                log.say(String.format("healed %s after %.1fs", fault, (System.nanoTime() - began) / 1e9));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            died = e;
            log.say("nemesis stopped by " + e);
        }
    }

    private boolean usable(Fault f) {
        return switch (f) {
            case KILL_LEADER, RESTART_SERVER, ROLLING_RESTART, LOSE_QUORUM -> servers.quorum();
            case PAUSE_SERVER -> servers.quorum() && servers.childProcesses();
            case CUT_CLIENT, DELAY_CLIENT, PAUSE_CLIENT -> clients.hasLinks();
            case EXPIRE_SESSION -> clients.hasSessions();
            case PAUSE_PROCESS, KILL_PROCESS -> clients.hasProcesses();
            case ISOLATE_LEADER, ISOLATE_FOLLOWER, SPLIT_SERVERS -> servers.quorum() && servers.peerProxies();
        };
    }

    private void inject(Fault fault, Duration length) throws InterruptedException {
        switch (fault) {
            case KILL_LEADER -> servers.killLeader(length);
            case RESTART_SERVER -> servers.restartOne(length);
            case ROLLING_RESTART -> servers.rollingRestart();
            case LOSE_QUORUM -> servers.loseQuorum(length);
            case PAUSE_SERVER -> servers.pauseOne(length);
            case CUT_CLIENT -> clients.cut(length);
            case DELAY_CLIENT -> clients.delay(length);
            case PAUSE_CLIENT -> clients.pauseLink();
            case EXPIRE_SESSION -> clients.expireSession();
            case PAUSE_PROCESS -> clients.pauseProcess();
            case KILL_PROCESS -> clients.killProcess(length);
            case ISOLATE_LEADER -> servers.isolateLeader(length);
            case ISOLATE_FOLLOWER -> servers.isolateFollower(length);
            case SPLIT_SERVERS -> servers.split(length);
        }
    }

    /** Heals the fault in effect, then everything else whatever it was; a failed heal is thrown after the rest. */
    private void healAll() {
        Runnable heal = pacing.takeHeal();
        RuntimeException failed = null;
        if (heal != null) {
            try {
                heal.run();
            } catch (RuntimeException e) {
                failed = e; // heal everything else first, then say so
            }
        }
        clients.healAll();
        servers.healAll();
        log.say("healed");
        if (failed != null) {
            throw failed;
        }
    }
}
