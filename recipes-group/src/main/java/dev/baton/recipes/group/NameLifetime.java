package dev.baton.recipes.group;

/** How long a name registered with the {@link NamingService} lasts. */
public enum NameLifetime {
    /** Until it is released, or the registrant's session ends (an ephemeral node). */
    EPHEMERAL,
    /** Until it is released (a persistent node). */
    PERSISTENT
}
