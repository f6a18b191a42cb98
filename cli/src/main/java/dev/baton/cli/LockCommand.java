package dev.baton.cli;

import dev.baton.framework.BatonClient;
import dev.baton.recipes.lock.InterProcessMutex;
import dev.baton.recipes.lock.LockLease;
import java.time.Duration;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code baton lock NAME -- CMD}: run a command while holding a distributed lock. */
@Command(name = "lock",
    description = {"Run a command while holding a lock.",
        "Wait for the lock NAME, run CMD while holding it, release it once CMD and everything it started have "
        + "ended, and exit with CMD's code. CMD gets BATON_LOCK_PATH, BATON_FENCE (the fencing token) and BATON_SESSION_ID. "
        + "If the lock is lost while CMD runs, or baton dies, every process of CMD gets SIGTERM, then SIGKILL after "
        + "--kill-grace (at once if baton died), and baton exits 75. SIGINT, SIGTERM and SIGHUP are passed on to CMD; a "
        + "second SIGINT or SIGTERM kills it (SIGKILL) and baton exits 137. NAME is a path if it starts with /, else "
        + "/baton/locks/NAME. Curator's InterProcessMutex on the same path interoperates."})
final class LockCommand extends HeldCommand.Holder {
    @Parameters(index = "1..*", arity = "0..*", paramLabel = "CMD",
        description = "The command to run while holding (after --); without one, hold until Ctrl-C.")
    java.util.List<String> command;

    @Override
    public Integer call() throws InterruptedException {
        hold.checkAgainst(connection.sessionTimeout);
        HeldCommand.checkRunnable(command);
        Duration limit = hold.waitLimit();
        String path = Names.path("locks", name);
        try (BatonClient client = connection.connect()) {
            GraceCheck grace = GraceCheck.watch(client, hold, connection.sessionTimeout);
            InterProcessMutex mutex = new InterProcessMutex(client, path);
            HeldCommand.keepSignals();
            LockLease lease = HeldCommand.await(limit == null ? mutex.acquireAsync() : mutex.acquireAsync(limit), grace);
            if (lease == null) {
                throw new CliExit(ExitCodes.NOT_ACQUIRED, "lock " + name + " not acquired " + (hold.tryOnce ? "(it is held)"
                    : "within " + Durations.format(limit)));
            }
            Map<String, String> env = HeldCommand.lockEnv(path, lease, client);
            return HeldCommand.run(HeldCommand.held(lease, lease::release), hold, grace,
                new SessionLease(client, path, grace, connection.sessionTimeout, hold.killGrace), command, env, "lock " + name,
                spec.commandLine().getErr());
        }
    }
}
