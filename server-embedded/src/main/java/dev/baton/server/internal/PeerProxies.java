package dev.baton.server.internal;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The proxies on every server-to-server route of an ensemble: for each directed pair, one in
 * front of the target's quorum port and one in front of its election port (see {@link PeerView}).
 * Cutting a pair cuts the four proxies between the two servers, so no Zab or election traffic
 * passes between them in either direction, whoever opens the connection.
 */
public final class PeerProxies implements AutoCloseable {
    /**
     * How long a connection to a server's quorum port waits for the port to be bound: a leader
     * binds it only once elected, and its followers dial it at once (see
     * {@link TcpProxy#start(InetSocketAddress, int, String, Duration)}).
     */
    static final Duration QUORUM_TARGET_WAIT = Duration.ofSeconds(2);
    private final List<Route> routes;

    private record Route(int from, int to, TcpProxy quorum, TcpProxy election) {
        boolean joins(int a, int b) {
            return (from == a && to == b) || (from == b && to == a);
        }
    }

    private PeerProxies(List<Route> routes) {
        this.routes = routes;
    }

    /**
     * Starts a proxy on every route of {@code layout}, on the ports it reserved.
     *
     * @throws IOException if a reserved port cannot be bound (the proxies started are closed)
     */
    public static PeerProxies start(Layout layout, String ensembleName) throws IOException {
        Map<Integer, NodeSpec> byId = new TreeMap<>();
        layout.specs().forEach(spec -> byId.put(spec.id(), spec));
        List<TcpProxy> started = new ArrayList<>();
        List<Route> routes = new ArrayList<>();
        try {
            for (Layout.PeerRoute route : layout.routes()) {
                NodeSpec target = byId.get(route.to());
                String name = ensembleName + "-peer-" + route.from() + "-to-" + route.to();
                // a leader binds its quorum port only once elected: a follower may dial it a moment before
                TcpProxy quorum = TcpProxy.start(loopback(target.quorumPort()), route.quorumPort(), name + "-quorum",
                    QUORUM_TARGET_WAIT);
                started.add(quorum);
                TcpProxy election = TcpProxy.start(loopback(target.electionPort()), route.electionPort(), name + "-election");
                started.add(election);
                routes.add(new Route(route.from(), route.to(), quorum, election));
            }
        } catch (IOException | RuntimeException e) {
            started.forEach(TcpProxy::close);
            throw e;
        }
        return new PeerProxies(List.copyOf(routes));
    }

    private static InetSocketAddress loopback(int port) {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
    }

    /** Cuts every route between a server in {@code side} and one of {@code all} that is not. */
    public void cutBetween(Set<Integer> side, Set<Integer> all, boolean silent) {
        for (int inside : side) {
            for (int outside : all) {
                if (!side.contains(outside)) {
                    cut(inside, outside, silent);
                }
            }
        }
    }

    /** Cuts every route between servers {@code a} and {@code b}, both ways; {@code silent} drops traffic without closing. */
    private void cut(int a, int b, boolean silent) {
        for (Route route : routes) {
            if (route.joins(a, b)) {
                if (silent) {
                    route.quorum.silence();
                    route.election.silence();
                } else {
                    route.quorum.cut();
                    route.election.cut();
                }
            }
        }
    }

    /** Heals every route. */
    public void healAll() {
        for (Route route : routes) {
            route.quorum.heal();
            route.election.heal();
        }
    }

    /** The servers reachable from {@code id}: a server whose route to {@code id} is not cut (itself included). */
    public Set<Integer> reachableFrom(int id) {
        Set<Integer> reachable = new TreeSet<>();
        reachable.add(id);
        for (Route route : routes) {
            if (route.from == id && route.quorum.isOpen()) {
                reachable.add(route.to);
            }
        }
        return reachable;
    }

    @Override
    public void close() {
        for (Route route : routes) {
            route.quorum.close();
            route.election.close();
        }
    }
}
