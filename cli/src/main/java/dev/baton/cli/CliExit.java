package dev.baton.cli;

/** Ends the command with an exit code and a message for a person (on stderr). */
public final class CliExit extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int code;

    public CliExit(int code, String message) {
        super(message);
        this.code = code;
    }

    public int code() {
        return code;
    }
}
