package dev.baton.recipes.discovery;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ChangeSignal;
import dev.baton.framework.ClientClosedException;
import dev.baton.framework.Deadline;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Required services: which of them have no usable instance, now or once a deadline passes.
 * Waiting follows each still-missing service with a cache and re-checks when one changes, so a
 * dependency that starts at the same moment is found without polling.
 */
final class Dependencies<T> {
    private final ServiceDiscovery<T> discovery;
    private final Set<String> required;

    Dependencies(ServiceDiscovery<T> discovery, Set<String> required) {
        this.discovery = discovery;
        this.required = required;
    }

    /** The required services without a usable instance in ZooKeeper now. */
    Set<String> missingNow() throws InterruptedException {
        Set<String> missing = new TreeSet<>();
        for (String name : required) {
            if (discovery.queryForInstances(name).stream().noneMatch(ServiceInstance::isAvailable)) {
                missing.add(name);
            }
        }
        return missing;
    }

    /**
     * The required services still without a usable instance after waiting up to {@code timeout}
     * (zero: check once). Without a connection nothing can be checked, so every required service
     * counts as missing until the caches below have loaded, once the connection comes. A close of
     * the client ends the wait at once: nothing it waits for can come any more.
     *
     * @throws ClientClosedException if the client is closed while it waits
     */
    Set<String> await(Duration timeout) throws InterruptedException {
        Set<String> missing = discovery.client().connectionState().isConnected() ? missingNow() : new TreeSet<>(required);
        if (missing.isEmpty() || timeout.isZero()) {
            return missing;
        }
        BatonClient client = discovery.client();
        Deadline deadline = Deadline.after(timeout, client.ticker());
        ChangeSignal changed = new ChangeSignal();
        // a closed client's caches never change again: its close wakes the wait below to say so
        client.addConnectionStateListener(changed);
        List<ServiceCache<T>> caches = new ArrayList<>();
        try {
            for (String name : missing) {
                ServiceCache<T> cache = discovery.ownedCache(name, timeout);
                cache.addListener(changed::bump);
                caches.add(cache);
                cache.startInBackground();
            }
            for (ServiceCache<T> cache : caches) {
                if (!cache.awaitLoaded(deadline.remaining())) {
                    return missing;
                }
            }
            while (true) {
                long seen = changed.generation();
                Set<String> still = new TreeSet<>();
                for (ServiceCache<T> cache : caches) {
                    if (cache.getInstances().stream().noneMatch(ServiceInstance::isAvailable)) {
                        still.add(cache.name());
                    }
                }
                if (still.isEmpty()) {
                    return still;
                }
                if (client.isClosed()) {
                    throw new ClientClosedException("wait for the required services " + still + " under", discovery.basePath());
                }
                if (!changed.awaitChange(seen, deadline)) {
                    return still;
                }
            }
        } finally {
            client.removeConnectionStateListener(changed);
            caches.forEach(ServiceCache::close);
        }
    }
}
