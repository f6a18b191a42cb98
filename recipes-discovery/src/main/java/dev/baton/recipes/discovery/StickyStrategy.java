package dev.baton.recipes.discovery;

import java.util.Objects;

/**
 * Keeps returning the same instance while it is usable; when it goes (unregistered, disabled,
 * not UP, or taken out by the down-instance policy) asks another strategy for a new one.
 *
 * <p>The choice is remembered per snapshot: while the snapshot is unchanged a call is one
 * volatile read; on a new snapshot the chosen id is looked up once.
 *
 * @param <T> the payload type
 */
public final class StickyStrategy<T> implements ProviderStrategy<T> {
    private final ProviderStrategy<T> chooser;
    private volatile Choice<T> choice = new Choice<>(null, null);

    private record Choice<T>(Instances<T> from, ServiceInstance<T> instance) {
    }

    /**
     * Sticks to what {@code chooser} picks (for example a {@link RandomStrategy}, so clients spread out).
     *
     * @param chooser picks an instance when there is none to stick to
     */
    public StickyStrategy(ProviderStrategy<T> chooser) {
        this.chooser = Objects.requireNonNull(chooser, "chooser");
    }

    @Override
    public ServiceInstance<T> getInstance(Instances<T> instances) {
        Choice<T> current = choice;
        if (current.from() == instances) {
            return current.instance();
        }
        ServiceInstance<T> chosen = null;
        if (current.instance() != null) {
            int index = instances.indexOf(current.instance().id());
            chosen = index >= 0 ? instances.get(index) : null;
        }
        if (chosen == null) {
            chosen = chooser.getInstance(instances);
        }
        choice = new Choice<>(instances, chosen);
        return chosen;
    }
}
