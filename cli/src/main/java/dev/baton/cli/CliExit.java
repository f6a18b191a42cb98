package dev.baton.cli;

import picocli.CommandLine.Model.CommandSpec;

/** Ends the command with an exit code and a message for a person (on stderr). */
public final class CliExit extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** The exit code the command ends with. */
    private final int code;

    /**
     * Ends the command with {@code code}, telling the person {@code message}.
     *
     * @param code the exit code (see {@link ExitCodes})
     * @param message what to print on stderr, after {@code "baton: "}; null or empty prints nothing
     */
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

    /** {@return the exit code the command ends with (see {@link ExitCodes})} */
    public int code() {
        return code;
    }
}
