package dev.baton.cli;

import java.time.Duration;
import picocli.CommandLine.Option;

/** What lock, sem and elect share: how long to wait, how long to hold, how to stop the command. */
final class HoldOptions {
    /**
     * What the kill grace must leave free of a third of the session timeout: the time from the
     * client noticing the disconnect to the SIGKILL landing (event delivery, the order to the
     * command's supervisor, scheduling on a busy machine) and a round trip to the servers.
     */
    static final Duration MARGIN = Duration.ofMillis(500);

    @Option(names = "--timeout", paramLabel = "D", converter = Durations.class,
        description = "Give up waiting after D and exit 1 (default: wait as long as it takes).")
    Duration timeout;

    @Option(names = "--try", description = "Do not wait: exit 1 at once if another process holds it.")
    boolean tryOnce;

    @Option(names = "--max-hold", paramLabel = "D", converter = Durations.class,
        description = "Stop CMD (and exit 75) if it still runs after D (default: no limit).")
    Duration maxHold;

    @Option(names = "--kill-grace", paramLabel = "D", converter = Durations.class, defaultValue = "2s",
        description = "Time between SIGTERM and SIGKILL when CMD must stop (default: ${DEFAULT-VALUE}). "
            + "With 500ms to spare, it must fit in a third of the session timeout the servers grant, "
            + "so CMD is dead before anyone else can hold.")
    Duration killGrace;

    /** The wait: null for no limit, zero for --try. */
    Duration waitLimit() {
        if (tryOnce && timeout != null) {
            throw new CliExit(ExitCodes.USAGE, "--try and --timeout cannot be used together");
        }
        return tryOnce ? Duration.ZERO : timeout;
    }

    /**
     * Before connecting: the grace against the session timeout asked for (the servers never grant
     * more than that unless it is below their minimum), so an impossible pair is refused at once.
     */
    void checkAgainst(Duration asked) {
        if (!fits(asked)) {
            throw new CliExit(ExitCodes.USAGE, "--kill-grace " + Durations.format(killGrace) + " is too long for --session-timeout "
                + Durations.format(asked) + ": " + rule(asked));
        }
    }

    /**
     * Why the grace does not fit the session timeout the servers granted, or null if it does:
     * ZooKeeper's client declares the connection lost after two thirds of the negotiated timeout
     * without word from the servers, and the servers expire the session (letting another holder
     * in) after the whole of it, so the command must be dead within the last third.
     */
    String problemWith(Duration granted, Duration asked) {
        if (fits(granted)) {
            return null;
        }
        return "--kill-grace " + Durations.format(killGrace) + " is too long for the session timeout the servers granted ("
            + Durations.format(granted) + (granted.equals(asked) ? "" : ", of " + Durations.format(asked) + " asked") + "): "
            + rule(granted);
    }

    private boolean fits(Duration sessionTimeout) {
        return killGrace.plus(MARGIN).compareTo(sessionTimeout.dividedBy(3)) <= 0;
    }

    private String rule(Duration sessionTimeout) {
        Duration most = sessionTimeout.dividedBy(3).minus(MARGIN);
        return "the command must be dead within a third of it less " + Durations.format(MARGIN)
            + " to spare, before the session can expire and someone else hold; "
            + (most.isNegative() || most.isZero() ? "use a longer --session-timeout"
                : "use --kill-grace " + most.toMillis() + "ms or less, or a longer --session-timeout");
    }
}
