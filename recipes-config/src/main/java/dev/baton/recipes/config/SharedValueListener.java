package dev.baton.recipes.config;

/** Told of each new value of a {@link SharedValue}, on the client's event executor, in order. */
@FunctionalInterface
public interface SharedValueListener {
    /**
     * Called with each new value.
     *
     * @param sharedValue the value that changed
     * @param newValue its new bytes
     */
    void valueHasChanged(SharedValue sharedValue, byte[] newValue);
}
