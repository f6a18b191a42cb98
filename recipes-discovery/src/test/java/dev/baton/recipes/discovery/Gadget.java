package dev.baton.recipes.discovery;

/**
 * Stands for a deserialisation gadget: a class with side effects in its static initialiser and
 * constructor. Hostile instance data names it in {@code "@class"}; reading that data must neither
 * initialise nor construct it.
 */
public class Gadget {
    static {
        Tripwire.gadgetInitialized = true;
    }

    public String command;

    public Gadget() {
        Tripwire.gadgetConstructed = true;
    }
}
