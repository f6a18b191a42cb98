package dev.baton.recipes.discovery;

import java.util.Locale;

/**
 * An instance's health as its registrant declares it, stored in the instance's metadata under
 * {@code "health"} (a field Curator ignores). Only UP instances are handed out by a
 * {@link ServiceProvider}; setting any other health also sets {@code enabled=false}, so Curator
 * consumers skip the instance too.
 */
public enum Health {
    /** Serving. The default when the metadata says nothing. */
    UP,
    /** Not serving (failed a self-check, overloaded, ...). */
    DOWN,
    /** Taken out on purpose (deploy, drain, investigation); expected back. */
    MAINTENANCE;

    /** The metadata key the health is stored under. */
    public static final String METADATA_KEY = "health";

    /** Reads a stored value; null means UP, a value this version does not know means DOWN (the safe reading). */
    static Health parse(String value) {
        if (value == null) {
            return UP;
        }
        try {
            return valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            return DOWN;
        }
    }
}
