package dev.baton.cli;

import dev.baton.cli.internal.GuardedChild;
import dev.baton.cli.internal.Signals;
import dev.baton.framework.BatonClient;
import dev.baton.framework.contention.Grant;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * Runs a command while something is held (a lock, a semaphore lease, leadership) and stops it
 * when the hold is lost: the part of {@code baton lock}, {@code baton sem} and {@code baton elect}
 * that is the same.
 */
final class HeldCommand {
    /** Something held: the grant, seen the same way whatever recipe gave it. */
    interface Held {
        long token();

        void onLost(Runnable callback);

        Optional<String> lossReason();

        void release();
    }

    /** What lock, sem and elect take alike: the connection, the hold options and the recipe's NAME; each adds CMD. */
    abstract static class Holder implements Callable<Integer> {
        @Mixin
        ConnectOptions connection;
        @Mixin
        HoldOptions hold;
        @Spec
        CommandSpec spec;
        @Parameters(index = "0", paramLabel = "NAME", description = "What to hold: a path if it starts with /, else a name.")
        String name;
    }

    private HeldCommand() {
    }

    /** A lock's lease or a semaphore's lease as a {@link Held}; {@code release} is how that recipe gives it back. */
    static Held held(Grant grant, Runnable release) {
        return new Held() {
            @Override
            public long token() {
                return grant.fencingToken();
            }

            @Override
            public void onLost(Runnable callback) {
                grant.onLost(callback);
            }

            @Override
            public Optional<String> lossReason() {
                return grant.lossReason();
            }

            @Override
            public void release() {
                release.run();
            }
        };
    }

    /** The environment lock and sem give CMD: the recipe's path, the fencing token and the session. */
    static Map<String, String> lockEnv(String path, Grant grant, BatonClient client) {
        return Map.of(
            "BATON_LOCK_PATH", path,
            "BATON_FENCE", Long.toString(grant.fencingToken()),
            "BATON_SESSION_ID", "0x" + Long.toHexString(client.sessionId()));
    }

    /**
     * From here until {@link #await} takes over, SIGINT, SIGTERM and SIGHUP are kept instead of
     * ending the JVM. Called just before an attempt puts its node in line: a JVM ended by a signal
     * in between would leave that node for its session to expire, holding up everyone behind it,
     * and say nothing. {@code await} hands a kept signal to the attempt, which gives its place up.
     */
    static void keepSignals() {
        Signals.offerTo(signal -> false);
    }

    /**
     * Waits for {@code attempt}. SIGINT, SIGTERM or SIGHUP while waiting cancels it (its node is
     * removed) and exits 128+N, as a process ended by signal N does (130 for Ctrl-C); a new
     * session that {@code grace} refuses cancels it too, with the refusal. A signal that comes
     * once the attempt has succeeded cancels nothing: it is kept for {@link #run}.
     *
     * @return the hold, or null when the wait timed out
     */
    static <T> T await(CompletableFuture<T> attempt, GraceCheck grace) throws InterruptedException {
        AtomicReference<String> interrupted = new AtomicReference<>();
        Signals.offerTo(signal -> {
            interrupted.compareAndSet(null, signal);
            return attempt.cancel(true) || attempt.isCancelled();
        });
        grace.onRefusal(() -> attempt.cancel(true));
        try {
            return attempt.get();
        } catch (CancellationException e) {
            grace.throwIfRefused();
            String signal = interrupted.get();
            if (signal == null) {
                throw new CliExit(ExitCodes.INTERRUPTED, "the wait was cancelled; gave up my place in line");
            }
            throw new CliExit(ExitCodes.forSignal(signal), "interrupted (SIG" + signal + ") while waiting; gave up my place in line");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            throw new CliExit(ExitCodes.SOFTWARE, String.valueOf(cause));
        }
    }

    /** Refuses at once, before connecting or waiting, a command that cannot be run. */
    static void checkRunnable(List<String> command) {
        if (command != null && !command.isEmpty()) {
            GuardedChild.whyNotRunnable(command.get(0)).ifPresent(why ->
                { throw new CliExit(ExitCodes.USAGE, "cannot run " + command.get(0) + ": " + why); });
        }
    }

    /**
     * With a command: runs it with {@code env} under {@code lease}, stops it if the hold is lost,
     * {@code maxHold} passes or a new session's timeout is too short for the kill grace, releases
     * once nothing of the command runs any more, and returns its exit code (75 if it had to be
     * stopped, 70 if its supervisor died). A signal that came between the grant and now means the
     * command is not started: the hold is released and baton exits 128+N. Without a command:
     * holds until SIGINT/SIGTERM, then releases.
     */
    static int run(Held held, HoldOptions options, GraceCheck grace, SessionLease lease, List<String> command,
        Map<String, String> env, String what, PrintWriter err) throws InterruptedException {
        if (grace.refused()) {
            releaseQuietly(held);
            grace.throwIfRefused();
        }
        if (command == null || command.isEmpty()) {
            return holdUntilInterrupted(held, what, err);
        }
        Optional<String> early = Signals.takeKept();
        if (early.isPresent()) {
            releaseQuietly(held);
            throw new CliExit(ExitCodes.forSignal(early.get()), "interrupted (SIG" + early.get() + ") before the command started; released "
                + what);
        }
        GuardedChild child;
        try {
            child = GuardedChild.start(command, env, options.killGrace, lease, err);
        } catch (IOException e) {
            held.release();
            throw new CliExit(ExitCodes.SOFTWARE, "cannot start " + command.get(0) + " (bash, setsid and mkfifo are needed): "
                + e.getMessage());
        }
        // a signal that came since the look above is handed over now
        AtomicReference<String> firstStop = new AtomicReference<>();
        Signals.forwardTo(signal -> forward(child, signal, firstStop, err));
        AtomicReference<String> stopReason = new AtomicReference<>();
        held.onLost(() -> {
            lease.lost();
            stopInBackground(child, options.killGrace, stopReason, what + " lost (" + held.lossReason().orElse("unknown") + ")");
        });
        grace.onRefusal(() -> {
            lease.lost();
            stopInBackground(child, options.killGrace, stopReason, "a new session came with a timeout the kill grace does not fit");
        });
        if (options.maxHold != null) {
            CompletableFuture.delayedExecutor(options.maxHold.toMillis(), TimeUnit.MILLISECONDS).execute(() ->
                stopInBackground(child, options.killGrace, stopReason, what + " held longer than --max-hold " + Durations.format(options.maxHold)));
        }
        // returns once every process of the command's session is gone: only then is the hold given back
        GuardedChild.Ended ended = child.waitFor();
        switch (ended.cause()) {
            case SUPERVISOR_DIED -> {
                err.println("baton: the command's supervisor died (" + ended.detail() + "); killed what was left of the command");
                err.flush();
                releaseQuietly(held);
                return ExitCodes.SOFTWARE;
            }
            case LEASE_RAN_OUT -> {
                lease.lost();
                stopReason.compareAndSet(null, what + " lost (" + ended.detail() + ")");
            }
            case EXITED -> {
                // the command's own end, or the one a stop above asked for
            }
        }
        if (stopReason.get() != null) {
            err.println("baton: " + stopReason.get() + "; stopped the command (it exited " + ended.code() + ")");
            err.flush();
            releaseQuietly(held);
            return ExitCodes.LOST;
        }
        held.release();
        return ended.code();
    }

    /**
     * Passes {@code signal} on to the command's session, but a second SIGINT or SIGTERM kills the
     * session (SIGKILL): the command ignored the first, or is taking its time, and whoever sends
     * another wants it gone. Otherwise the only way out was SIGKILL to baton, which leaves what it
     * holds to its session's expiry; this way baton still releases it once nothing of the command
     * runs. SIGHUP is only passed on (it often means "reload").
     */
    private static void forward(GuardedChild child, String signal, AtomicReference<String> firstStop, PrintWriter err) {
        boolean stop = signal.equals("INT") || signal.equals("TERM");
        if (!stop) {
            child.signal(signal);
        } else if (firstStop.compareAndSet(null, signal)) {
            child.signal(signal);
            err.println("baton: SIG" + signal + " passed on to the command; a second SIGINT or SIGTERM kills it");
            err.flush();
        } else {
            err.println("baton: a second SIG" + signal + ": killing the command (SIGKILL)");
            err.flush();
            // not on the signal's thread: the supervisor may take up to 5 s to answer
            Thread killer = new Thread(() -> {
                try {
                    child.kill();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "baton-kill-command");
            killer.setDaemon(true);
            killer.start();
        }
    }

    private static void stopInBackground(GuardedChild child, Duration grace, AtomicReference<String> reason, String why) {
        if (!reason.compareAndSet(null, why)) {
            return;
        }
        Thread stopper = new Thread(() -> {
            try {
                child.stop(grace);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "baton-stop-command");
        stopper.setDaemon(true);
        stopper.start();
    }

    private static int holdUntilInterrupted(Held held, String what, PrintWriter err) throws InterruptedException {
        CountDownLatch done = new CountDownLatch(1);
        AtomicReference<String> lost = new AtomicReference<>();
        Signals.forwardTo(signal -> done.countDown());
        held.onLost(() -> {
            lost.set(held.lossReason().orElse("unknown"));
            done.countDown();
        });
        err.println("baton: holding " + what + " (token " + held.token() + "); Ctrl-C to release");
        err.flush();
        done.await();
        if (lost.get() != null) {
            err.println("baton: " + what + " lost (" + lost.get() + ")");
            err.flush();
            releaseQuietly(held);
            return ExitCodes.LOST;
        }
        held.release();
        return ExitCodes.OK;
    }

    private static void releaseQuietly(Held held) {
        try {
            held.release();
        } catch (RuntimeException alreadyGone) {
            // a lost hold refuses a release; there is nothing left to give back
        }
    }
}
