package dev.baton.recipes.group;

import dev.baton.framework.BatonException;

/** An {@link IdAllocator} cannot hand out ids: its node holds something it cannot read, or its ids ran out. */
public class IdAllocatorException extends BatonException {
    private static final long serialVersionUID = 1L;

    /**
     * A failure of an allocator.
     *
     * @param message what the allocator found, and what it expected
     */
    public IdAllocatorException(String message) {
        super(message);
    }
}
