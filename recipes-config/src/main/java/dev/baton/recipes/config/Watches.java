package dev.baton.recipes.config;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The listeners of one store, and their updates. Registration and every update run on the
 * client's event executor, in the order snapshots were published, so each listener sees values
 * only move forward; a new listener first gets the current values of its scope.
 */
final class Watches {
    private static final Logger LOG = LoggerFactory.getLogger(Watches.class);

    private final String base;
    private final Executor executor;
    private final Supplier<ConfigSnapshot> current;
    private final List<Watch> watches = new CopyOnWriteArrayList<>();

    Watches(String base, Executor executor, Supplier<ConfigSnapshot> current) {
        this.base = base;
        this.executor = executor;
        this.current = current;
    }

    private final class Watch implements ConfigWatch {
        final String scope;
        final boolean prefix;
        final ConfigListener listener;
        volatile boolean closed;

        Watch(String scope, boolean prefix, ConfigListener listener) {
            this.scope = scope;
            this.prefix = prefix;
            this.listener = listener;
        }

        boolean covers(String key) {
            return prefix ? Keys.under(key, scope) : key.equals(scope);
        }

        @Override
        public String scope() {
            return scope;
        }

        @Override
        public void close() {
            closed = true;
            watches.remove(this);
        }

        @Override
        public String toString() {
            return "watch of " + (prefix ? "prefix '" + scope + "'" : "key '" + scope + "'") + " in " + base;
        }
    }

    ConfigWatch add(String scope, boolean prefix, ConfigListener listener) {
        Watch watch = new Watch(scope, prefix, listener);
        executor.execute(() -> {
            if (watch.closed) {
                return;
            }
            watches.add(watch);
            ConfigSnapshot now = current.get();
            if (now != null) {
                List<ConfigChange> initial = new ArrayList<>();
                for (String key : now.keys()) {
                    if (watch.covers(key)) {
                        initial.add(new ConfigChange(key, Optional.empty(), now.get(key)));
                    }
                }
                deliver(watch, now, initial);
            }
        });
        return watch;
    }

    /**
     * Tells every listener whose scope holds one of {@code changedKeys}; called on the executor. A
     * release usually changes a key or two: nothing is sorted or collected for one key, and a
     * listener whose scope holds none costs no allocation. Each listener still gets values of its
     * own (the arrays are copies), as before.
     */
    void published(ConfigSnapshot before, ConfigSnapshot after, Collection<String> changedKeys) {
        if (watches.isEmpty() || changedKeys.isEmpty()) {
            return;
        }
        String[] sorted = changedKeys.toArray(new String[0]);
        if (sorted.length > 1) {
            Arrays.sort(sorted);
        }
        for (Watch watch : watches) {
            List<ConfigChange> changes = null;
            for (String key : sorted) {
                if (watch.covers(key)) {
                    ConfigChange change = new ConfigChange(key, before == null ? Optional.empty() : before.get(key), after.get(key));
                    if (changes == null) {
                        changes = List.of(change);
                    } else {
                        if (changes.size() == 1) {
                            changes = new ArrayList<>(changes);
                        }
                        changes.add(change);
                    }
                }
            }
            if (changes != null) {
                deliver(watch, after, changes);
            }
        }
    }

    private void deliver(Watch watch, ConfigSnapshot snapshot, List<ConfigChange> changes) {
        if (changes.isEmpty() || watch.closed) {
            return;
        }
        try {
            watch.listener.changed(new ConfigUpdate(snapshot, changes));
        } catch (RuntimeException e) {
            LOG.error("{}: the listener threw; it still gets later updates", watch, e);
        }
    }

    void clear() {
        watches.forEach(w -> w.closed = true);
        watches.clear();
    }
}
