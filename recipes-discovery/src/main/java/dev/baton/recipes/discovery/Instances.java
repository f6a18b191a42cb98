package dev.baton.recipes.discovery;

import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * An immutable, indexed snapshot of instances: what a {@link ProviderStrategy} chooses from.
 *
 * <p>A cache builds a new snapshot only when its content changes, so between changes every call
 * sees the same object; a strategy that derives something from a snapshot (cumulative weights,
 * the instances of one zone) can keep it until it is handed a different snapshot, compared by
 * identity. Reading a snapshot never allocates.
 *
 * @param <T> the payload type
 */
public final class Instances<T> {
    private static final Instances<?> EMPTY = new Instances<>(new ServiceInstance<?>[0]);

    private final ServiceInstance<?>[] items;
    private final List<ServiceInstance<T>> list;

    @SuppressWarnings("unchecked")
    private Instances(ServiceInstance<?>[] items) {
        this.items = items;
        this.list = Collections.unmodifiableList(Arrays.asList((ServiceInstance<T>[]) items));
    }

    /**
     * {@return the empty snapshot}
     *
     * @param <T> the payload type
     */
    @SuppressWarnings("unchecked")
    public static <T> Instances<T> empty() {
        return (Instances<T>) EMPTY;
    }

    /**
     * {@return a snapshot of {@code instances}, in their iteration order}
     *
     * @param <T> the payload type
     * @param instances the instances, none of them null
     */
    public static <T> Instances<T> of(Collection<ServiceInstance<T>> instances) {
        Objects.requireNonNull(instances, "instances");
        if (instances.isEmpty()) {
            return empty();
        }
        ServiceInstance<?>[] copy = instances.toArray(new ServiceInstance<?>[0]);
        for (ServiceInstance<?> instance : copy) {
            Objects.requireNonNull(instance, "an instance in the collection is null");
        }
        return new Instances<>(copy);
    }

    /** {@return how many instances the snapshot holds} */
    public int size() {
        return items.length;
    }

    /** {@return whether the snapshot holds no instance} */
    public boolean isEmpty() {
        return items.length == 0;
    }

    /**
     * {@return the instance at {@code index}, 0 to {@code size() - 1}}
     *
     * @param index 0 to {@code size() - 1}
     */
    @SuppressWarnings("unchecked")
    public ServiceInstance<T> get(int index) {
        return (ServiceInstance<T>) items[index];
    }

    /** {@return the instances as an unmodifiable list (no copy)} */
    public List<ServiceInstance<T>> asList() {
        return list;
    }

    /**
     * Position of the instance with id {@code id}, or -1.
     *
     * @param id an instance id
     * @return the position of the instance with id {@code id}, or -1 if there is none
     */
    public int indexOf(String id) {
        for (int i = 0; i < items.length; i++) {
            if (items[i].id().equals(id)) {
                return i;
            }
        }
        return -1;
    }

    /**
     * {@return the instances that pass {@code filter}; this same snapshot if all of them do}
     *
     * @param filter which instances to keep
     */
    public Instances<T> filter(Predicate<? super ServiceInstance<T>> filter) {
        Objects.requireNonNull(filter, "filter");
        ServiceInstance<?>[] kept = new ServiceInstance<?>[items.length];
        int n = 0;
        for (int i = 0; i < items.length; i++) {
            if (filter.test(get(i))) {
                kept[n++] = items[i];
            }
        }
        if (n == items.length) {
            return this;
        }
        return n == 0 ? empty() : new Instances<>(Arrays.copyOf(kept, n));
    }

    @Override
    public String toString() {
        return list.toString();
    }
}
