package dev.baton.recipes.queue;

/**
 * How a queue orders its items, which also fixes how their node names are made and read
 * (Curator 5.9's names, so mixed fleets agree):
 *
 * <ul>
 *   <li>FIFO: {@code <prefix><seq>}</li>
 *   <li>PRIORITY: {@code <prefix><1 if priority >= 0 else 0><8 hex digits of the priority><seq>}, lower first</li>
 *   <li>DELAY: {@code <prefix>|<hex epoch millis>|<seq>}, earliest due first, never before it is due</li>
 *   <li>ID: {@code <prefix>|<id>|<seq>}, FIFO; the id lets an item be removed before it is consumed</li>
 * </ul>
 */
enum ItemOrder {
    FIFO,
    PRIORITY,
    DELAY,
    ID;

    /**
     * Whether an item put after a consumer listed the queue may belong before the items it
     * listed. Only then is a listing refreshed before it has been worked through.
     */
    public boolean newItemsMayJumpAhead() {
        return switch (this) {
            case FIFO, ID -> false;
            case PRIORITY, DELAY -> true;
        };
    }
}
