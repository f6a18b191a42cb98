package dev.baton.recipes.election;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ClientClosedException;
import dev.baton.framework.ClientClosingListener;
import dev.baton.framework.ClientNotStartedException;
import dev.baton.framework.ConnectionStateListener;
import dev.baton.framework.Failures;
import dev.baton.framework.NodeData;
import dev.baton.framework.ZPaths;
import dev.baton.recipes.election.ElectionEvent.LeaderChanged;
import dev.baton.recipes.election.ElectionEvent.NoLeader;
import java.io.Closeable;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.zookeeper.AddWatchMode;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows an election without taking part: reports {@link LeaderChanged} (who leads, in which
 * term, and what it proclaims) and {@link NoLeader}, in order.
 *
 * <p>Algorithm. One persistent recursive watch on the election's folder wakes the observer on
 * every node created, deleted or changed in it. Each wake-up reads the line (children, then the
 * first node's data and czxid) — one read at a time, later reads never older than earlier ones —
 * and reports the result if it differs from the last report. Latch and selector elections (and
 * Curator's) are followed alike.
 *
 * <p>Guarantees and caveats. Reports never go back in time: a term is never reported after a
 * later one. A term shorter than a read round trip may be skipped. The observer reports the
 * participant whose node is first in line — the one entitled to lead; under CONNECTION or LEASE
 * that process may have stepped down for a while (disconnected) without its node moving. While
 * the observer's own client is disconnected it reports nothing; on reconnecting (or after its
 * session expired) it reads again and reports what changed. A new listener hears the latest
 * report first. Closing the observer's client closes the observer too.
 * Each report is also told to the client's {@link dev.baton.framework.BatonObserver} (whether
 * the election has a leader), so {@code baton-metrics} can show it.
 *
 * <pre>{@code
 * try (ElectionObserver observer = new ElectionObserver(client, "/services/billing/leader")) {
 *     observer.addListener(event -> {
 *         if (event instanceof ElectionEvent.LeaderChanged changed) {
 *             router.sendTo(changed.leader().id());
 *         }
 *     });
 *     observer.start();
 * }
 * }</pre>
 */
public final class ElectionObserver implements Closeable {
    private static final Logger LOG = LoggerFactory.getLogger(ElectionObserver.class);

    /** Where an observer is in its life. */
    public enum State {
        /** Built, not started. */
        LATENT,
        /** Started: following the election and reporting changes. */
        OBSERVING,
        /** Closed for good. */
        CLOSED
    }

    private final BatonClient client;
    private final Line line;
    private final Notifier notifier;
    private final List<ElectionListener> listeners = new CopyOnWriteArrayList<>();
    private final Watcher watcher = this::onWatch;
    private final ConnectionStateListener onConnection = ConnectionChanges.onConnected(this::refresh);
    /** Closes the observer when its client closes: it could never report again. */
    private final ClientClosingListener closesWithClient = this::close;

    // guarded by this
    private State state = State.LATENT;
    private ElectionEvent last;
    private long highestToken = LeaderLatch.NO_TOKEN;
    private long watchedSession;
    private boolean reading;
    private boolean readAgain;

    /**
     * An observer of the election at {@code path} (a latch's or a selector's, Curator's or Baton's).
     *
     * @param client the client to read the election with
     * @param path the election's folder
     * @throws dev.baton.framework.InvalidPathException if {@code path} is not a valid folder for a recipe
     */
    public ElectionObserver(BatonClient client, String path) {
        this.client = Objects.requireNonNull(client, "client");
        this.line = Line.observing(client, ZPaths.validateRecipePath("ElectionObserver", path));
        this.notifier = new Notifier(client.asyncExecutor(), client, "election observer " + path);
    }

    /**
     * Starts following (in the background); the first report says who leads now. Needs no
     * connection: without one the first report comes once the client connects.
     *
     * @throws IllegalStateException if it was started before, or closed (a closed observer cannot
     *     start again: build a new one)
     * @throws ClientNotStartedException if the client was never started (start it, then this)
     * @throws ClientClosedException if the client is closed (nothing could ever be reported)
     */
    public void start() {
        // unstarted, the first report would wait for a connection that a client never started never makes
        client.requireStarted("start the election observer", line.path());
        synchronized (this) {
            Leadership.checkNotStarted("observer", line.path(), state);
            state = State.OBSERVING;
        }
        client.addConnectionStateListener(closesWithClient);
        client.addConnectionStateListener(onConnection);
        if (client.isClosed()) {
            close(); // closed since the check above: the hook may have come too late
            throw new ClientClosedException("start the election observer", line.path());
        }
        refresh();
    }

    /**
     * Adds a listener; if something was reported already, it hears the latest report first.
     *
     * @param listener the listener to add
     * @throws ElectionClosedException if the observer is closed (or its client is): it would never be called
     */
    public void addListener(ElectionListener listener) {
        Objects.requireNonNull(listener, "listener");
        synchronized (this) {
            if (state == State.CLOSED) {
                throw new ElectionClosedException("observer on " + line.path() + " is closed: a listener added now would never be called");
            }
            listeners.add(listener);
            ElectionEvent latest = last;
            if (latest != null) {
                notifier.add(() -> listener.electionChanged(latest));
            }
        }
        notifier.flush();
    }

    /**
     * Removes a listener; it hears nothing more.
     *
     * @param listener the listener to remove
     */
    public void removeListener(ElectionListener listener) {
        listeners.remove(listener);
    }

    /** {@return the latest report, if any yet} */
    public synchronized Optional<ElectionEvent> current() {
        return Optional.ofNullable(last);
    }

    /** {@return where the observer is in its life} */
    public synchronized State state() {
        return state;
    }

    /** Stops following the election; closing the observer's client does this too. */
    @Override
    public void close() {
        client.removeConnectionStateListener(closesWithClient);
        synchronized (this) {
            if (state == State.CLOSED) {
                return;
            }
            state = State.CLOSED;
        }
        client.removeConnectionStateListener(onConnection);
        if (!client.isClosed()) {
            client.watches().removeAsync(line.path(), watcher, Watcher.WatcherType.Any);
        }
    }

    /**
     * What to report after reading {@code seen}, given the {@code last} report and the highest
     * token reported so far: nothing (null) if it says nothing new or would go back in time.
     */
    static ElectionEvent next(ElectionEvent last, long highestToken, ElectionEvent seen) {
        if (seen.equals(last)) {
            return null;
        }
        if (seen instanceof LeaderChanged changed && changed.token() < highestToken) {
            return null;
        }
        return seen;
    }

    private void onWatch(WatchedEvent event) {
        String changed = event.getPath();
        if (changed == null || event.getType() == Watcher.Event.EventType.None) {
            return; // connection events come through the state listener
        }
        String parent = changed.substring(0, Math.max(0, changed.lastIndexOf('/')));
        if (changed.equals(line.path()) || parent.equals(line.path())) {
            refresh();
        }
    }

    /** Reads the line and reports what changed; one read at a time, a wake-up during a read causes one more. */
    private void refresh() {
        synchronized (this) {
            if (state != State.OBSERVING) {
                return;
            }
            if (reading) {
                readAgain = true;
                return;
            }
            reading = true;
            readAgain = false;
        }
        watch().thenCompose(v -> line.ordered()).thenCompose(this::head).whenComplete((seen, failure) -> {
            boolean again;
            synchronized (this) {
                reading = false;
                if (failure == null && seen == null) {
                    readAgain = true; // the first node went between listing and reading it
                } else if (failure == null && state == State.OBSERVING) {
                    report(seen);
                }
                again = readAgain && failure == null;
            }
            notifier.flush();
            if (failure != null) {
                LOG.debug("observer of {}: read failed ({}); reading again on the next change or connection",
                    line.path(), Failures.unwrap(failure).toString());
            }
            if (again) {
                refresh();
            }
        });
    }

    /** The first node as a report, NoLeader for an empty line, or null if it vanished meanwhile. */
    private CompletableFuture<ElectionEvent> head(List<String> ordered) {
        if (ordered.isEmpty()) {
            return CompletableFuture.completedFuture(new NoLeader());
        }
        return line.read(ordered.get(0)).thenApply((NodeData node) -> node == null ? null
            : new LeaderChanged(new Participant(new String(node.data(), StandardCharsets.UTF_8), true), node.stat().getCzxid()));
    }

    private void report(ElectionEvent seen) { // caller holds the lock
        ElectionEvent event = next(last, highestToken, seen);
        if (event == null) {
            return;
        }
        last = event;
        if (event instanceof LeaderChanged changed) {
            highestToken = Math.max(highestToken, changed.token());
        }
        client.observer().electionLeaderSeen(line.path(), event instanceof LeaderChanged);
        listeners.forEach(l -> notifier.add(() -> l.electionChanged(event)));
    }

    /** Installs the watch once per session (watches end with their session). */
    private CompletableFuture<Void> watch() {
        long session = client.sessionId();
        synchronized (this) {
            if (session == watchedSession) {
                return CompletableFuture.completedFuture(null);
            }
        }
        return client.watches().addAsync(line.path(), AddWatchMode.PERSISTENT_RECURSIVE, watcher).thenRun(() -> {
            synchronized (this) {
                watchedSession = session;
            }
        });
    }
}
