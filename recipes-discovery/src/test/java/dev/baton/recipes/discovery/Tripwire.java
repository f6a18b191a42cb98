package dev.baton.recipes.discovery;

/** Records whether {@link Gadget} was initialised or constructed: it never should be by Baton. */
public final class Tripwire {
    public static volatile boolean gadgetInitialized;
    public static volatile boolean gadgetConstructed;

    private Tripwire() {
    }
}
