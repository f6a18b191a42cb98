package dev.baton.cli;

/** The {@code baton} command's exit codes (sysexits.h where one fits). */
public final class ExitCodes {
    /** Done. */
    public static final int OK = 0;
    /** The lock, lease or leadership was not obtained within the timeout (or at once, with --try). */
    public static final int NOT_ACQUIRED = 1;
    /** Bad command line. */
    public static final int USAGE = 64;
    /** The ensemble could not be reached. */
    public static final int UNAVAILABLE = 69;
    /** Something failed inside baton, or the command's supervisor died (baton killed what was left of the command). */
    public static final int SOFTWARE = 70;
    /**
     * The lock, lease or leadership was lost while the command ran, or baton could not show its
     * session alive in time (it was stopped, stalled or cut off); the command was stopped.
     */
    public static final int LOST = 75;
    /** {@code baton doctor} found something that will make recipes misbehave (sysexits' EX_CONFIG). */
    public static final int CONFIG = 78;
    /** The servers refused the credentials given (a wrong SASL password, an unknown user): sysexits' EX_NOPERM. */
    public static final int NO_PERMISSION = 77;
    /** Interrupted (Ctrl-C, SIGINT) while waiting; SIGTERM gives 143 and SIGHUP 129 (see {@link #forSignal}). */
    public static final int INTERRUPTED = 130;

    /**
     * The exit code for a command ended by a signal: by shell convention, signal N gives 128+N.
     *
     * @param signal the signal's name without the {@code SIG} prefix: {@code "HUP"},
     *     {@code "INT"} or {@code "TERM"}
     * @return 129 for SIGHUP, 130 for SIGINT, 143 for SIGTERM
     * @throws IllegalArgumentException if {@code signal} is not one of those three
     */
    public static int forSignal(String signal) {
        return 128 + switch (signal) {
            case "HUP" -> 1;
            case "INT" -> 2;
            case "TERM" -> 15;
            default -> throw new IllegalArgumentException("not a signal baton handles: " + signal);
        };
    }

    private ExitCodes() {
    }
}
