package dev.baton.test.history;

import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.AddWatchMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;

/**
 * One of {@link ServerTruth}'s observers: a plain ZooKeeper client connected to one server alone,
 * with a persistent recursive watch on each watched folder, telling the truth every creation and
 * deletion it hears. On every (re)connection it lists the folders again, since events committed
 * while it was away are not replayed; a lost session is replaced by a new one.
 */
final class TruthObserver implements Watcher {
    private static final int SESSION_MILLIS = 30_000;

    private final ServerTruth truth;
    private final String server;
    private final ExecutorService lister;
    private volatile ZooKeeper zk;
    private boolean watching;

    TruthObserver(ServerTruth truth, String server) {
        this.truth = truth;
        this.server = server;
        this.lister = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "baton-truth-" + server);
            t.setDaemon(true);
            return t;
        });
        // on the lister's thread, like every later step: the first SyncConnected can come before
        // the constructor returns, and its listing must find the handle assigned
        lister.execute(this::connect);
    }

    private void connect() {
        watching = false;
        try {
            zk = new ZooKeeper(server, SESSION_MILLIS, this);
        } catch (IOException e) {
            truth.note("observer of " + server + " could not start: " + e);
        }
    }

    @Override
    public void process(WatchedEvent event) {
        long now = System.nanoTime();
        switch (event.getType()) {
            case NodeCreated -> truth.created(event.getPath(), event.getZxid(), now, true);
            case NodeDeleted -> truth.deleted(event.getPath(), event.getZxid(), now, true);
            case None -> connection(event.getState());
            default -> { }
        }
    }

    private void connection(Watcher.Event.KeeperState state) {
        if (truth.closed()) {
            return;
        }
        switch (state) {
            case SyncConnected -> lister.execute(this::startWatching);
            case Disconnected -> truth.note("observer of " + server + " disconnected at " + System.nanoTime());
            case Expired -> lister.execute(() -> {
                truth.note("observer of " + server + " lost its session; starting a new one");
                try {
                    zk.close();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                connect();
            });
            default -> { }
        }
    }

    /** On every (re)connection: watch (once per session), then list what may have been missed. */
    private void startWatching() {
        ZooKeeper handle = zk;
        try {
            // the servers' state as the listing starts: what existed then is listed, what came after is in the logs
            handle.exists("/", false);
            long before = Zxids.lastSeen(handle);
            if (!watching) {
                for (String root : truth.roots()) {
                    handle.addWatch(root, AddWatchMode.PERSISTENT_RECURSIVE);
                }
                watching = true;
            }
            for (String root : truth.roots()) {
                list(handle, root);
            }
            truth.started(before);
        } catch (KeeperException e) {
            truth.note("observer of " + server + " could not list after connecting (" + e.code() + "); the next reconnection will");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void list(ZooKeeper handle, String parent) throws KeeperException, InterruptedException {
        Stat parentStat = new Stat();
        List<String> children;
        try {
            children = handle.getChildren(parent, false, parentStat);
        } catch (KeeperException.NoNodeException gone) {
            return;
        }
        long now = System.nanoTime();
        long listedAt = Zxids.lastSeen(handle);
        truth.known(listedAt, now);
        Set<String> listed = new HashSet<>();
        for (String child : children) {
            String path = parent.equals("/") ? "/" + child : parent + "/" + child;
            Stat stat = handle.exists(path, false);
            if (stat == null) {
                continue;
            }
            listed.add(path);
            truth.created(path, stat.getCzxid(), now, false);
            if (stat.getNumChildren() > 0) {
                list(handle, path);
            }
        }
        for (Lives.Life life : truth.aliveChildren(parent)) {
            // alive in the truth, not listed, and created before the listing: deleted meanwhile
            if (!listed.contains(life.path) && life.czxid <= parentStat.getPzxid()) {
                truth.deleted(life.path, parentStat.getPzxid(), now, false);
            }
        }
    }

    void close() throws InterruptedException {
        lister.shutdownNow();
        lister.awaitTermination(10, TimeUnit.SECONDS);
        ZooKeeper handle = zk;
        if (handle != null) {
            handle.close();
        }
    }
}
