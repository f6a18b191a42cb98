package dev.baton.recipes.discovery;

import java.util.Objects;

/** A payload as services use them: a plain Jackson bean (public, with a no-argument constructor, so Curator can read it too). */
public class Endpoint {
    /** An enum payload, for the shapes test. */
    public enum Kind { PRIMARY, REPLICA }

    public String zone;
    public String version;

    public Endpoint() {
    }

    public Endpoint(String zone, String version) {
        this.zone = zone;
        this.version = version;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Endpoint e && Objects.equals(zone, e.zone) && Objects.equals(version, e.version);
    }

    @Override
    public int hashCode() {
        return Objects.hash(zone, version);
    }

    @Override
    public String toString() {
        return "Endpoint{" + zone + ", " + version + "}";
    }
}
