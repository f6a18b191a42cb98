package dev.baton.recipes.config;

/** Told of each new value of a {@link SharedValue}, on the client's event executor, in order. */
@FunctionalInterface
public interface SharedValueListener {
    void valueHasChanged(SharedValue sharedValue, byte[] newValue);
}
