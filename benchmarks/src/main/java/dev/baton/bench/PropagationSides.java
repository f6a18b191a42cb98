package dev.baton.bench;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.baton.framework.BatonClient;
import dev.baton.recipes.config.ConfigStore;
import java.util.ArrayList;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.NodeCache;
import org.apache.curator.framework.recipes.shared.SharedValue;
import org.apache.curator.framework.recipes.shared.SharedValueListener;
import org.apache.curator.framework.recipes.shared.SharedValueReader;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.zookeeper.AsyncCallback;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;

/**
 * The thirteen ways the config benchmark's propagation and request counts write a value and watch
 * it, in their order: raw, Baton's release and {@code set}, Curator's {@code SharedValue}, Baton's
 * {@code SharedValue} (as shipped, then with its watchers' listeners run in place, not the default
 * contract), Curator's {@code NodeCache}, then the raw floors of {@link ReleaseFloors} (the
 * release-shaped row, then the other layouts from {@link #FIRST_FLOOR} on), and the clients they
 * run on: of each kind one writer and N watchers, each on a client of its own (Baton's in-place
 * row: N more watchers' clients, built with {@code eventExecutor(Runnable::run)}; its writer is
 * the Baton writer). Closing closes the ways' stores, caches and values, then the clients.
 */
final class PropagationSides implements AutoCloseable {
    /** The raw limit's place in {@link #all}'s list. */
    static final int RAW = 0;
    /** Baton's release's place. */
    static final int RELEASE = 1;
    /** Baton's {@code set}'s place. */
    static final int SET = 2;
    /** Curator's {@code SharedValue}'s place. */
    static final int SHARED_VALUE = 3;
    /** Baton's {@code SharedValue}'s place, as shipped (listeners on the client's event executor). */
    static final int BATON_SHARED_VALUE = 4;
    /** Baton's {@code SharedValue} with its watchers' listeners run in place: not the default contract. */
    static final int BATON_SHARED_IN_PLACE = 5;
    /** The raw release-shaped floor's place. */
    static final int RELEASE_SHAPED = 7;
    /** The first of the layouts' floors: these go in a new order each round. */
    static final int FIRST_FLOOR = 8;

    /** Of each kind, the writer first, then one client per watcher. */
    private final List<ZooKeeper> raws = new ArrayList<>();
    private final List<BatonClient> batons = new ArrayList<>();
    /** Watchers only: the in-place row's writer is the Baton writer. */
    private final List<BatonClient> inPlace = new ArrayList<>();
    private final List<CuratorFramework> curators = new ArrayList<>();
    private final List<AutoCloseable> closing = new ArrayList<>();

    private PropagationSides() {
    }

    /** {@return a writer and {@code n} watchers of each kind, connected to {@code connect}} */
    static PropagationSides connect(String connect, int n) throws Exception {
        PropagationSides made = new PropagationSides();
        try {
            made.raws.add(Clients.raw(connect));
            made.batons.add(Clients.baton(connect));
            made.curators.add(Clients.curator(connect));
            for (int i = 0; i < n; i++) {
                made.batons.add(Clients.baton(connect));
                made.curators.add(Clients.curator(connect));
                made.raws.add(Clients.raw(connect));
                made.inPlace.add(Clients.batonInPlace(connect));
            }
        } catch (Exception | Error e) {
            made.close();
            throw e;
        }
        return made;
    }

    /**
     * All thirteen ways, each on a node (a base, for Baton and the floors) of its own: {@code paths}
     * holds them in the list's order. Each Baton way has a store of its own (as each Curator way has
     * its own node): a watcher's store reads what changed in its subtree, so two ways on one store
     * would each make every watcher read the other's writes too. The writers' stores are started,
     * as a service's would be: a release starts from its snapshot.
     */
    List<PropagationSide> all(String[] paths, String releaseKey, String setKey) throws Exception {
        List<PropagationSide> sides = new ArrayList<>();
        sides.add(raw("raw     setData, getData watch re-set", raws, paths[0]));
        ConfigStore releaseWriter = writerStore(batons.get(0), paths[1], closing);
        ConfigStore setWriter = writerStore(batons.get(0), paths[2], closing);
        sides.add(baton("Baton   ConfigStore release, watchKey", releaseWriter, batons, paths[1], releaseKey, true, closing));
        sides.add(baton("Baton   ConfigStore set, watchKey", setWriter, batons, paths[2], setKey, false, closing));
        sides.add(curatorShared("Curator SharedValue.setValue, listeners", curators, paths[3], closing));
        sides.add(batonShared("Baton   SharedValue.setValue, listeners", batons.get(0), batons.subList(1, batons.size()), paths[4],
            closing));
        sides.add(batonShared("Baton   SharedValue, in place (not default)", batons.get(0), inPlace, paths[5], closing));
        sides.add(curatorNodeCache("Curator setData, NodeCache listeners", curators, paths[6], closing));
        sides.add(ReleaseFloors.side("raw     release-shaped multi, key+fence read", raws, paths[RELEASE_SHAPED],
            ReleaseFloors.Layout.CURRENT));
        for (int f = 0; f < ReleaseFloors.LAYOUTS.size(); f++) {
            sides.add(ReleaseFloors.side(ReleaseFloors.NAMES.get(f), raws, paths[FIRST_FLOOR + f], ReleaseFloors.LAYOUTS.get(f)));
        }
        return sides;
    }

    @Override
    public void close() throws Exception {
        for (AutoCloseable c : closing) {
            c.close();
        }
        curators.forEach(CuratorFramework::close);
        batons.forEach(BatonClient::close);
        inPlace.forEach(BatonClient::close);
        raws.forEach(Clients::closeQuietly);
    }

    /**
     * The limit: the classic hand-written watcher on the plain client — on each event, read again
     * with a new watch — so a watcher is told one notification and one read after the write.
     */
    private static PropagationSide raw(String name, List<ZooKeeper> clients, String path) throws Exception {
        ZooKeeper writer = clients.get(0);
        Clients.folder(writer, path);
        PropagationSide side = new PropagationSide(name, value -> writer.setData(path, value.getBytes(UTF_8), -1));
        for (int i = 1; i < clients.size(); i++) {
            int watcher = i - 1;
            ZooKeeper zk = clients.get(i);
            Watcher[] rearm = new Watcher[1];
            AsyncCallback.DataCallback heard = (rc, p, ctx, data, stat) -> {
                if (rc == KeeperException.Code.OK.intValue()) {
                    side.heard(watcher, new String(data, UTF_8));
                }
            };
            rearm[0] = event -> zk.getData(path, rearm[0], heard, null);
            Clients.caughtUp(zk, path); // the writer created the node through another server, perhaps
            zk.getData(path, rearm[0], null);
        }
        return side;
    }

    private static ConfigStore writerStore(BatonClient client, String base, List<AutoCloseable> closing) throws InterruptedException {
        ConfigStore store = ConfigStore.builder(client, base).keepReleases(10).build();
        closing.add(store);
        store.start();
        if (!store.awaitInitialized(PropagationSide.WAIT)) {
            throw new IllegalStateException("the writer's store of " + base + " did not load");
        }
        return store;
    }

    /** Baton: a release of {@code key} or a plain {@code set}, each watcher a store of its own with {@code watchKey}. */
    private static PropagationSide baton(String name, ConfigStore writer, List<BatonClient> clients, String base, String key,
                                         boolean release, List<AutoCloseable> closing) throws Exception {
        PropagationSide side = new PropagationSide(name, value -> {
            if (release) {
                writer.release().set(key, value).commit();
            } else {
                writer.set(key, value);
            }
        });
        for (int i = 1; i < clients.size(); i++) {
            int watcher = i - 1;
            ConfigStore store = ConfigStore.builder(clients.get(i), base).build();
            closing.add(store);
            store.start();
            if (!store.awaitInitialized(PropagationSide.WAIT)) {
                throw new IllegalStateException("store did not load");
            }
            store.watchKey(key, update -> update.changes().forEach(c -> side.heard(watcher, c.valueAsString().orElse(""))));
        }
        return side;
    }

    private static PropagationSide curatorShared(String name, List<CuratorFramework> clients, String path, List<AutoCloseable> closing)
        throws Exception {
        SharedValue writer = new SharedValue(clients.get(0), path, new byte[0]);
        writer.start();
        closing.add(writer);
        PropagationSide side = new PropagationSide(name, value -> writer.setValue(value.getBytes(UTF_8)));
        for (int i = 1; i < clients.size(); i++) {
            int watcher = i - 1;
            SharedValue shared = new SharedValue(clients.get(i), path, new byte[0]);
            shared.getListenable().addListener(new SharedValueListener() {
                @Override
                public void valueHasChanged(SharedValueReader reader, byte[] newValue) {
                    side.heard(watcher, new String(newValue, UTF_8));
                }

                @Override
                public void stateChanged(CuratorFramework client, ConnectionState newState) {
                    // not measured
                }
            });
            shared.start();
            closing.add(shared);
        }
        return side;
    }

    /**
     * Baton's {@code SharedValue}, written and watched as Curator's is in {@link #curatorShared}: the
     * writer's own started value calls {@code setValue}, each watcher is a value of its own with a
     * listener (run where the watcher's client runs listeners).
     */
    private static PropagationSide batonShared(String name, BatonClient writerClient, List<BatonClient> watchers, String path,
                                               List<AutoCloseable> closing) throws Exception {
        dev.baton.recipes.config.SharedValue writer = new dev.baton.recipes.config.SharedValue(writerClient, path, new byte[0]);
        writer.start();
        closing.add(writer);
        PropagationSide side = new PropagationSide(name, value -> writer.setValue(value.getBytes(UTF_8)));
        for (int i = 0; i < watchers.size(); i++) {
            int watcher = i;
            var shared = new dev.baton.recipes.config.SharedValue(watchers.get(i), path, new byte[0]);
            shared.addListener((v, newValue) -> side.heard(watcher, new String(newValue, UTF_8)));
            shared.start();
            closing.add(shared);
        }
        return side;
    }

    @SuppressWarnings("deprecation") // NodeCache: Curator 5's deprecated but still shipped single-node cache, the peer of a key watch
    private static PropagationSide curatorNodeCache(String name, List<CuratorFramework> clients, String path, List<AutoCloseable> closing)
        throws Exception {
        CuratorFramework writer = clients.get(0);
        if (writer.checkExists().forPath(path) == null) {
            writer.create().forPath(path, new byte[0]);
        }
        PropagationSide side = new PropagationSide(name, value -> writer.setData().forPath(path, value.getBytes(UTF_8)));
        for (int i = 1; i < clients.size(); i++) {
            int watcher = i - 1;
            NodeCache cache = new NodeCache(clients.get(i), path);
            cache.getListenable().addListener(() -> {
                var data = cache.getCurrentData();
                if (data != null) {
                    side.heard(watcher, new String(data.getData(), UTF_8));
                }
            });
            cache.start(true);
            closing.add(cache);
        }
        return side;
    }
}
