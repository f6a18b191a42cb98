package dev.baton.cli;

import dev.baton.framework.BatonClient;
import dev.baton.recipes.lock.InterProcessSemaphoreV2;
import dev.baton.recipes.lock.Lease;
import java.time.Duration;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code baton sem -n N NAME -- CMD}: run a command while holding one of N leases. */
@Command(name = "sem",
    description = {"Run a command while holding one of N leases.",
        "Like lock, with N leases: at most N commands run at once under NAME (/baton/semaphores/NAME). Every "
        + "process must use the same -n. Same environment, signals and exit codes as lock."})
final class SemCommand extends HeldCommand.Holder {
    @Option(names = {"-n", "--leases"}, paramLabel = "N", required = true, description = "How many may hold at once.")
    int leases;
    @Parameters(index = "1..*", arity = "0..*", paramLabel = "CMD",
        description = "The command to run while holding (after --); without one, hold until Ctrl-C.")
    java.util.List<String> command;

    @Override
    public Integer call() throws InterruptedException {
        if (leases < 1) {
            throw new CliExit(ExitCodes.USAGE, "-n must be at least 1, was " + leases);
        }
        hold.checkAgainst(connection.sessionTimeout);
        HeldCommand.checkRunnable(command);
        Duration limit = hold.waitLimit();
        String path = Names.path("semaphores", name);
        try (BatonClient client = connection.connect()) {
            GraceCheck grace = GraceCheck.watch(client, hold, connection.sessionTimeout);
            InterProcessSemaphoreV2 semaphore = new InterProcessSemaphoreV2(client, path, leases);
            HeldCommand.keepSignals();
            Lease lease = HeldCommand.await(limit == null ? semaphore.acquireAsync() : semaphore.acquireAsync(limit), grace);
            if (lease == null) {
                throw new CliExit(ExitCodes.NOT_ACQUIRED, "no lease of " + name + " " + (hold.tryOnce ? "free"
                    : "within " + Durations.format(limit)));
            }
            Map<String, String> env = HeldCommand.lockEnv(path, lease, client);
            HeldCommand.Held held = HeldCommand.held(lease, () -> semaphore.returnLease(lease));
            return HeldCommand.run(held, hold, grace, new SessionLease(client, path, grace, connection.sessionTimeout, hold.killGrace),
                command, env, "lease of " + name, spec.commandLine().getErr());
        }
    }
}
