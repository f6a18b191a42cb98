package dev.baton.server;

import dev.baton.server.internal.ProcessNode;
import dev.baton.server.internal.ServerNode;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import javax.net.SocketFactory;

/**
 * The servers of one {@link EmbeddedEnsemble}, by id: starting, stopping and restarting them, and
 * reading what they do (roles, the leader, whether they all serve and agree on the last zxid).
 *
 * <p>Every wait here polls the servers' roles against the ensemble's start timeout and fails with
 * an {@link EnsembleException} that lists each server's role. Child-process servers start in
 * parallel (each JVM takes about a second to come up); in-process ones one after the other.
 */
final class Servers {
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(2);

    private final String name;
    private final ServerMode mode;
    private final Map<Integer, ServerNode> nodes;
    private final Duration startTimeout;

    /**
     * @param name the ensemble's name, for thread names
     * @param mode where the servers run
     * @param nodes the servers, by id from 1
     * @param startTimeout how long a start, a restart or a leader lookup waits for servers to serve
     */
    Servers(String name, ServerMode mode, Map<Integer, ServerNode> nodes, Duration startTimeout) {
        this.name = name;
        this.mode = mode;
        this.nodes = Collections.unmodifiableMap(new TreeMap<>(nodes));
        this.startTimeout = startTimeout;
    }

    /** {@return the servers in order of id} */
    List<ServerNode> all() {
        return List.copyOf(nodes.values());
    }

    /** {@return the ids of the servers, 1 to {@link #size()}} */
    Set<Integer> ids() {
        return new TreeSet<>(nodes.keySet());
    }

    int size() {
        return nodes.size();
    }

    /**
     * {@return server {@code id}}
     *
     * @throws IllegalArgumentException if there is no such server
     */
    ServerNode node(int id) {
        ServerNode node = nodes.get(id);
        if (node == null) {
            throw new IllegalArgumentException("server id must be between 1 and " + nodes.size() + ", was " + id);
        }
        return node;
    }

    /**
     * {@return server {@code id} as a child process, for the signals only such a server takes}
     *
     * @param operation the public operation asked for, named in the exception
     * @throws UnsupportedOperationException if the servers run in-process
     */
    ProcessNode process(int id, String operation) {
        ServerNode node = node(id);
        if (node instanceof ProcessNode process) {
            return process;
        }
        throw new UnsupportedOperationException(operation + "(" + id + ") needs an ensemble built with "
            + "mode(ServerMode.CHILD_PROCESSES); this one runs its servers in-process");
    }

    /** Starts every server and returns once every one serves clients. */
    void startAll() {
        if (mode == ServerMode.CHILD_PROCESSES) {
            startInParallel();
        } else {
            nodes.values().forEach(Servers::start);
        }
        awaitServing(List.copyOf(nodes.keySet()), "start");
    }

    /** One starting thread a child JVM; the first failure is thrown once every thread has ended. */
    private void startInParallel() {
        List<Thread> starters = new ArrayList<>();
        List<RuntimeException> failures = Collections.synchronizedList(new ArrayList<>());
        for (ServerNode node : nodes.values()) {
            Thread t = new Thread(() -> {
                try {
                    start(node);
                } catch (RuntimeException e) {
                    failures.add(e);
                }
            }, name + "-start-" + node.spec().id());
            t.start();
            starters.add(t);
        }
        for (Thread t : starters) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new EnsembleException("interrupted while starting servers", e);
            }
        }
        if (!failures.isEmpty()) {
            throw failures.get(0);
        }
    }

    /**
     * Stops server {@code id} and starts it again; waits for it to serve only when a quorum runs
     * (without one it cannot).
     */
    void restart(int id) {
        ServerNode node = node(id);
        node.stop();
        start(node);
        long running = nodes.values().stream()
            .filter(n -> n.role() != ServerRole.STOPPED && n.role() != ServerRole.PAUSED).count();
        if (running > nodes.size() / 2) {
            awaitServing(List.of(id), "restart of server " + id);
        }
    }

    /** SIGKILL for a child process; an in-process server can only be stopped. */
    void kill(int id) {
        ServerNode node = node(id);
        if (node instanceof ProcessNode process) {
            process.kill();
        } else {
            node.stop();
        }
    }

    /**
     * Stops every server, even when some fail to stop.
     *
     * @throws EnsembleException naming how many failed, with the first as its cause and the others
     *     suppressed
     */
    void stopAll() {
        List<RuntimeException> failures = new ArrayList<>();
        for (ServerNode node : nodes.values()) {
            try {
                node.stop();
            } catch (RuntimeException e) {
                failures.add(e);
            }
        }
        if (!failures.isEmpty()) {
            EnsembleException e = new EnsembleException("failed to stop " + failures.size() + " server(s)", failures.get(0));
            failures.stream().skip(1).forEach(e::addSuppressed);
            throw e;
        }
    }

    /** {@return the id of the leader, waiting up to the start timeout while an election is under way} */
    int awaitLeader() {
        long deadline = System.nanoTime() + startTimeout.toNanos();
        while (true) {
            OptionalInt leader = currentLeader();
            if (leader.isPresent()) {
                return leader.getAsInt();
            }
            if (System.nanoTime() - deadline > 0) {
                throw new EnsembleException("no leader elected within " + startTimeout + "; servers: " + roles());
            }
            pause();
        }
    }

    /** {@return the server that leads now (a standalone server leads itself), without waiting} */
    OptionalInt currentLeader() {
        for (Map.Entry<Integer, ServerNode> e : nodes.entrySet()) {
            if (leads(e.getValue().role())) {
                return OptionalInt.of(e.getKey());
            }
        }
        return OptionalInt.empty();
    }

    /** {@return whether every server serves and exactly one leads} */
    boolean whole() {
        int leaders = 0;
        for (ServerNode node : nodes.values()) {
            ServerRole role = node.role();
            if (!role.isServing()) {
                return false;
            }
            if (leads(role)) {
                leaders++;
            }
        }
        return leaders == 1;
    }

    /**
     * {@return whether every server serves and all report the same last zxid}
     *
     * @param probes makes the sockets of the {@code srvr} probes (TLS ones for a TLS ensemble)
     */
    boolean inSync(SocketFactory probes) {
        Set<String> zxids = new TreeSet<>();
        for (ServerNode node : nodes.values()) {
            if (!node.role().isServing()) {
                return false;
            }
            InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), node.spec().clientPort());
            try {
                zxids.add(String.valueOf(FourLetterWords.field(
                    FourLetterWords.send(address, "srvr", PROBE_TIMEOUT, probes), "Zxid")));
            } catch (IOException unreachable) {
                return false;
            }
        }
        return zxids.size() == 1 && !zxids.contains("null");
    }

    private static boolean leads(ServerRole role) {
        return role == ServerRole.LEADER || role == ServerRole.STANDALONE;
    }

    private static void start(ServerNode node) {
        try {
            node.start();
        } catch (IOException e) {
            throw new EnsembleException("server " + node.spec().id() + " (client port " + node.spec().clientPort()
                + ", data " + node.spec().dataDir() + ") failed to start: " + e.getMessage(), e);
        }
    }

    private void awaitServing(List<Integer> ids, String what) {
        long deadline = System.nanoTime() + startTimeout.toNanos();
        while (!ids.stream().allMatch(id -> nodes.get(id).role().isServing())) {
            if (System.nanoTime() - deadline > 0) {
                throw new EnsembleException(what + " did not finish within " + startTimeout
                    + ": servers " + roles() + " (a server stuck LOOKING usually means no quorum"
                    + " or a quorum/election port taken by another process)");
            }
            pause();
        }
    }

    private Map<Integer, ServerRole> roles() {
        Map<Integer, ServerRole> roles = new TreeMap<>();
        nodes.forEach((id, node) -> roles.put(id, node.role()));
        return roles;
    }

    private static void pause() {
        try {
            Thread.sleep(10);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new EnsembleException("interrupted while waiting for the ensemble", e);
        }
    }
}
