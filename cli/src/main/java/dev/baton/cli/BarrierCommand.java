package dev.baton.cli;

import dev.baton.cli.internal.Signals;
import dev.baton.framework.BatonClient;
import dev.baton.recipes.barrier.DistributedBarrier;
import dev.baton.recipes.barrier.DistributedCountDownLatch;
import dev.baton.recipes.barrier.DistributedDoubleBarrier;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code baton barrier ...} and {@code baton latch ...}: the barrier recipes from the shell. */
@Command(name = "barrier",
    description = {"Gates and double barriers from the shell.",
        "Set, remove and wait on a gate, or run a command once N processes are ready. NAME is a path if it starts with /, "
            + "else /baton/barriers/NAME for a gate and /baton/syncs/NAME for sync."},
    subcommands = {BarrierCommand.Set.class, BarrierCommand.Remove.class, BarrierCommand.Wait.class, BarrierCommand.Sync.class})
final class BarrierCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw CliExit.needsSubcommand(spec, "barrier needs a subcommand: set, remove, wait or sync");
    }

    /** What set, remove and wait share: the gate NAME, reached on a connection of its own. */
    abstract static class GateCommand implements Callable<Integer> {
        @Mixin
        ConnectOptions connection;
        @Parameters(paramLabel = "NAME", description = "The gate.")
        String name;

        @Override
        public Integer call() throws InterruptedException {
            try (BatonClient client = connection.connect()) {
                return on(new DistributedBarrier(client, Names.path("barriers", name)));
            }
        }

        /** What the subcommand does to the gate; returns the exit code. */
        abstract int on(DistributedBarrier barrier) throws InterruptedException;

        /** For set and remove, which cannot time out: does {@code step} and exits 0. */
        static int done(Step step) throws InterruptedException {
            step.run();
            return ExitCodes.OK;
        }

        interface Step {
            void run() throws InterruptedException;
        }
    }

    @Command(name = "set", description = "Close the gate NAME.")
    static final class Set extends GateCommand {
        @Override
        int on(DistributedBarrier barrier) throws InterruptedException {
            return done(barrier::setBarrier);
        }
    }

    @Command(name = "remove", description = "Open the gate NAME: everyone waiting passes.")
    static final class Remove extends GateCommand {
        @Override
        int on(DistributedBarrier barrier) throws InterruptedException {
            return done(barrier::removeBarrier);
        }
    }

    @Command(name = "wait", description = "Wait until the gate NAME is open; exit 1 if it is still closed after --timeout.")
    static final class Wait extends GateCommand {
        @Option(names = "--timeout", paramLabel = "D", converter = Durations.class,
            description = "Give up after D and exit 1 (default: wait as long as it takes).")
        Duration timeout;

        @Override
        int on(DistributedBarrier barrier) throws InterruptedException {
            if (timeout == null) {
                barrier.waitOnBarrier();
                return ExitCodes.OK;
            }
            if (!barrier.waitOnBarrier(timeout)) {
                throw new CliExit(ExitCodes.NOT_ACQUIRED, "timed out after " + Durations.format(timeout) + ": gate " + name + " is still closed");
            }
            return ExitCodes.OK;
        }
    }

    @Command(name = "sync",
        description = {"Run CMD once N processes have entered the barrier.",
            "Enter the double barrier NAME with N members, run CMD once all have entered, then leave and wait for all to "
                + "leave; exit with CMD's code. NAME is a path if it starts with /, else /baton/syncs/NAME."})
    static final class Sync implements Callable<Integer> {
        /** How long a command stopped with SIGTERM may take to end before it gets SIGKILL. */
        private static final Duration KILL_GRACE = Duration.ofSeconds(10);
        @Mixin
        ConnectOptions connection;
        @Spec
        CommandSpec spec;
        @Option(names = {"-n", "--members"}, paramLabel = "N", required = true, description = "How many processes must enter.")
        int members;
        @Option(names = "--timeout", paramLabel = "D", converter = Durations.class, defaultValue = "10m",
            description = "For entering and for leaving: exit 1 when it passes (default: ${DEFAULT-VALUE}).")
        Duration timeout;
        @Parameters(index = "0", paramLabel = "NAME", description = "The barrier.")
        String name;
        @Parameters(index = "1..*", arity = "0..*", paramLabel = "CMD", description = "The command to run between enter and leave (after --).")
        List<String> command;

        @Override
        public Integer call() throws InterruptedException, IOException {
            if (members < 1) {
                throw new CliExit(ExitCodes.USAGE, "--members must be at least 1, was " + members);
            }
            // refused before entering: the other members would count a member whose command never runs
            HeldCommand.checkRunnable(command);
            // SIGINT, SIGTERM or SIGHUP ends the wait, or the command, here instead of ending the JVM
            // with the session open: its node would count as a member for the whole session timeout
            Thread main = Thread.currentThread();
            AtomicReference<String> signalled = new AtomicReference<>();
            Signals.forwardTo(signal -> {
                if (signalled.compareAndSet(null, signal)) {
                    main.interrupt();
                }
            });
            String step = "waiting to enter";
            Process child = null;
            try (BatonClient client = connection.connect()) {
                // not under barriers/ with the gates: the double barrier's node stays after its last round, and a gate of
                // the same name would read it as closed
                DistributedDoubleBarrier barrier = new DistributedDoubleBarrier(client, Names.path("syncs", name), members);
                PrintWriter err = spec.commandLine().getErr();
                if (!barrier.enter(timeout)) {
                    throw new CliExit(ExitCodes.NOT_ACQUIRED, "fewer than " + members + " members entered " + name + " within "
                        + Durations.format(timeout));
                }
                int code = ExitCodes.OK;
                if (command != null && !command.isEmpty()) {
                    step = "running the command";
                    child = new ProcessBuilder(command).inheritIO().start();
                    code = child.waitFor();
                }
                step = "waiting for the others to leave";
                if (!barrier.leave(timeout)) {
                    err.println("baton: not every member left " + name + " within " + Durations.format(timeout));
                    return code == ExitCodes.OK ? ExitCodes.NOT_ACQUIRED : code;
                }
                return code;
            } catch (InterruptedException e) {
                String signal = signalled.get();
                if (signal == null) {
                    throw e;
                }
                if (child != null && child.isAlive()) {
                    child.destroy();   // SIGTERM: the command does not outlive its member
                    if (!child.waitFor(KILL_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
                        child.destroyForcibly();
                    }
                }
                // closing the client (above) ended the session: the member is gone from the barrier
                throw new CliExit(ExitCodes.forSignal(signal), "interrupted (SIG" + signal + ") while " + step + "; left " + name);
            }
        }
    }

    /** {@code baton latch}: a distributed count-down latch from the shell. */
    @Command(name = "latch",
        description = {"A count-down latch from the shell.",
            "latch set NAME N, latch count-down NAME, latch await NAME, latch get NAME. NAME is a path if it starts with /, "
                + "else /baton/latches/NAME. count-down, await and get of a latch never set exit 1."})
    static final class Latch implements Callable<Integer> {
        @Mixin
        ConnectOptions connection;
        @Spec
        CommandSpec spec;
        @Parameters(index = "0", paramLabel = "ACTION", description = "set, count-down, await or get.")
        String action;
        @Parameters(index = "1", paramLabel = "NAME", description = "The latch.")
        String name;
        @Parameters(index = "2", arity = "0..1", paramLabel = "N", description = "For set: the count.")
        Long count;
        @Option(names = "--timeout", paramLabel = "D", converter = Durations.class,
            description = "For await: give up after D and exit 1 (default: wait as long as it takes).")
        Duration timeout;

        @Override
        public Integer call() throws InterruptedException {
            // refused without the ensemble, before connecting (exit 64 at once)
            if (!List.of("set", "count-down", "await", "get").contains(action)) {
                throw new CliExit(ExitCodes.USAGE, "latch action must be set, count-down, await or get, was '" + action + "'");
            }
            if (action.equals("set") && count == null) {
                throw new CliExit(ExitCodes.USAGE, "latch set needs a count: baton latch set NAME N");
            }
            if (action.equals("set") && count < 0) {
                throw new CliExit(ExitCodes.USAGE, "latch count must be 0 or more, was " + count);
            }
            String path = Names.path("latches", name);
            try (BatonClient client = connection.connect()) {
                // the recipe reads a latch never set as zero: get would print 0, await pass at once and
                // count-down do nothing, all silently, for a mistyped NAME or a waiter started before the set
                if (!action.equals("set") && client.checkExists().forPath(path) == null) {
                    throw new CliExit(ExitCodes.NOT_ACQUIRED, "no node " + path + ": no latch was set there (baton latch set " + name + " N)");
                }
                DistributedCountDownLatch latch = new DistributedCountDownLatch(client, path);
                switch (action) {
                    case "set" -> {
                        if (!latch.trySetCount(count)) {
                            throw new CliExit(ExitCodes.NOT_ACQUIRED, "latch " + name + " is still counting down; set it again at zero");
                        }
                    }
                    case "count-down" -> latch.countDown();
                    case "get" -> {
                        spec.commandLine().getOut().println(latch.getCount());
                        spec.commandLine().getOut().flush();
                    }
                    case "await" -> {
                        if (timeout == null) {
                            latch.await();
                        } else if (!latch.await(timeout)) {
                            throw new CliExit(ExitCodes.NOT_ACQUIRED, "timed out after " + Durations.format(timeout) + ": latch " + name
                                + " has not counted down to zero");
                        }
                    }
                    default -> throw new IllegalStateException("checked above: " + action);
                }
                return ExitCodes.OK;
            }
        }
    }
}
