package dev.baton.recipes.discovery;

import java.util.Set;

/**
 * {@link ServiceDiscovery#start()} found that services this one requires have no usable
 * instance (see {@link ServiceDiscoveryBuilder#requireServices}), or could not look because the
 * client had no connection to the ensemble within the dependency timeout.
 */
public final class MissingDependencyException extends DiscoveryException {
    private static final long serialVersionUID = 1L;

    private final transient Set<String> missing;

    /**
     * Required services with no usable instance under {@code basePath}.
     *
     * @param missing the services that had none
     * @param basePath the registry's root
     */
    public MissingDependencyException(Set<String> missing, String basePath) {
        this("required services have no usable instance under " + basePath + ": " + String.join(", ", missing), missing);
    }

    private MissingDependencyException(String message, Set<String> missing) {
        super(message);
        this.missing = Set.copyOf(missing);
    }

    /** The required services could not be seen because the client had no connection to the ensemble. */
    static MissingDependencyException unchecked(Set<String> missing, String basePath) {
        return new MissingDependencyException("required services could not be checked under " + basePath
            + ": no connection to the ensemble (a dependencyTimeout makes start() wait for it): " + String.join(", ", missing), missing);
    }

    /** {@return the required services that had no usable (enabled, UP) instance} */
    public Set<String> missing() {
        return missing;
    }
}
