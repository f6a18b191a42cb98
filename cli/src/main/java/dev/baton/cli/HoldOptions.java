package dev.baton.cli;

import java.time.Duration;
import picocli.CommandLine.Option;

/** What lock, sem and elect share: how long to wait, how long to hold, how to stop the command. */
final class HoldOptions {
    @Option(names = "--timeout", converter = Durations.class, description = "give up waiting after D and exit 1 (default: wait forever)")
    Duration timeout;

    @Option(names = "--try", description = "do not wait: exit 1 at once if it is taken")
    boolean tryOnce;

    @Option(names = "--max-hold", converter = Durations.class,
        description = "stop the command (and exit 75) if it still runs after D")
    Duration maxHold;

    @Option(names = "--kill-grace", converter = Durations.class, defaultValue = "2s",
        description = "time between SIGTERM and SIGKILL when the command must stop (default ${DEFAULT-VALUE}); "
            + "must be under a third of the session timeout, so the command is dead before anyone else can hold")
    Duration killGrace;

    /** The wait: null for no limit, zero for --try. */
    Duration waitLimit() {
        if (tryOnce && timeout != null) {
            throw new CliExit(ExitCodes.USAGE, "--try and --timeout cannot be used together");
        }
        return tryOnce ? Duration.ZERO : timeout;
    }

    /** The command must be killed before the servers could let another holder in. */
    void checkAgainst(Duration sessionTimeout) {
        if (killGrace.multipliedBy(3).compareTo(sessionTimeout) >= 0) {
            throw new CliExit(ExitCodes.USAGE, "--kill-grace " + Durations.format(killGrace) + " must be under a third of the session timeout ("
                + Durations.format(sessionTimeout) + "): the command must be dead before the session can expire");
        }
    }
}
