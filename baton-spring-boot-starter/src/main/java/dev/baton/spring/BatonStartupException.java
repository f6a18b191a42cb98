package dev.baton.spring;

/**
 * Start-up stopped by one of the starter's own checks: a setting that cannot be used, no ensemble,
 * a missing module, an ensemble not reached within {@code baton.startup-timeout}. The message says
 * what was wrong; {@link #property()} names the setting to fix and {@link #action()} what to do,
 * which {@link BatonStartupFailureAnalyzer} shows as Spring Boot's "APPLICATION FAILED TO START"
 * report. It is an {@link IllegalStateException}, as these failures always were.
 */
public class BatonStartupException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    /** The property to fix. */
    private final String property;
    /** What to do about it. */
    private final String action;

    /**
     * A start-up failure.
     *
     * @param property the property to fix, such as {@code baton.connect-string}
     * @param message what was wrong, naming the property and the value
     * @param action what to do about it, a sentence
     * @param cause the failure underneath, or null
     */
    public BatonStartupException(String property, String message, String action, Throwable cause) {
        super(message, cause);
        this.property = property;
        this.action = action;
    }

    /** {@return the property to fix, such as {@code baton.connect-string}} */
    public String property() {
        return property;
    }

    /** {@return what to do about it, a sentence} */
    public String action() {
        return action;
    }
}
