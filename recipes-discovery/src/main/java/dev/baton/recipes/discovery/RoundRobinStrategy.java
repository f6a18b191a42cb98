package dev.baton.recipes.discovery;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Takes the instances in turn: with n instances, every n consecutive calls return each instance
 * exactly once (in the snapshot's order: by node name). One atomic counter; no allocation. The
 * default strategy of a {@link ServiceProvider}.
 *
 * @param <T> the payload type
 */
public final class RoundRobinStrategy<T> implements ProviderStrategy<T> {
    private final AtomicInteger next = new AtomicInteger();

    @Override
    public ServiceInstance<T> getInstance(Instances<T> instances) {
        // the mask keeps the index non-negative after the counter wraps around
        int turn = next.getAndIncrement() & Integer.MAX_VALUE;
        return instances.get(turn % instances.size());
    }
}
