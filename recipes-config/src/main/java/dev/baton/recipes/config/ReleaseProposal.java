package dev.baton.recipes.config;

import java.util.Map;
import java.util.Optional;

/**
 * A release about to be written, as a {@link ReleaseValidator} sees it.
 *
 * @param number the number it will get if it is written
 * @param changes the keys it changes, to their new values (empty: removed), in the order given
 * @param result the whole configuration as it will be after the release: this store's latest
 *     snapshot with the changes applied (so rules across keys can be checked)
 */
public record ReleaseProposal(long number, Map<String, Optional<byte[]>> changes, ConfigSnapshot result) {
}
