package dev.baton.recipes.config;

import java.util.List;

/**
 * Decides whether a release may be written. It runs in the writer's process before anything is
 * sent (and again if the release must be retried over a newer state); a non-empty answer refuses
 * the release with {@link ReleaseRejectedException}, and nothing is written.
 *
 * <pre>{@code
 * ReleaseValidator portInRange = proposal -> proposal.result().getInt("http/port")
 *     .filter(port -> port < 1 || port > 65535)
 *     .map(port -> List.of("http/port must be 1-65535, was " + port))
 *     .orElse(List.of());
 * }</pre>
 */
@FunctionalInterface
public interface ReleaseValidator {
    /**
     * Judges a release.
     *
     * @param proposal the release's changes and the configuration it would make
     * @return the problems with it, one message each; empty (or null) to accept it
     */
    List<String> validate(ReleaseProposal proposal);
}
