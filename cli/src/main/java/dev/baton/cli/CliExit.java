package dev.baton.cli;

import picocli.CommandLine.Model.CommandSpec;

/** Ends the command with an exit code and a message for a person (on stderr). */
public final class CliExit extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int code;

    public CliExit(int code, String message) {
        super(message);
        this.code = code;
    }

    /**
     * For a command run without the subcommand it needs: prints its usage on stderr and returns
     * the usage-error exit (64) with {@code message}, for the caller to throw.
     */
    static CliExit needsSubcommand(CommandSpec spec, String message) {
        spec.commandLine().usage(spec.commandLine().getErr());
        return new CliExit(ExitCodes.USAGE, message);
    }

    public int code() {
        return code;
    }
}
