package dev.baton.recipes.discovery;

import java.util.Set;

/**
 * {@link ServiceDiscovery#start()} found that services this one requires have no usable
 * instance (see {@link ServiceDiscoveryBuilder#requireServices}).
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
        super("required services have no usable instance under " + basePath + ": " + String.join(", ", missing));
        this.missing = Set.copyOf(missing);
    }

    /** {@return the required services that had no usable (enabled, UP) instance} */
    public Set<String> missing() {
        return missing;
    }
}
