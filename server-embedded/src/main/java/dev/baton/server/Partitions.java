package dev.baton.server;

import dev.baton.server.internal.Layout;
import dev.baton.server.internal.PeerProxies;
import java.io.IOException;
import java.util.Objects;
import java.util.Set;

/**
 * Partitions between the servers of one {@link EmbeddedEnsemble}: the checks on what may be cut,
 * over the proxies on every server-to-server route ({@link PeerProxies}). An ensemble built
 * without peer proxies has none, and every cut or heal fails naming the builder setting it needs.
 */
final class Partitions implements AutoCloseable {
    /** The proxies between servers, or null without peer proxies. */
    private final PeerProxies proxies;
    private final Servers servers;

    private Partitions(PeerProxies proxies, Servers servers) {
        this.proxies = proxies;
        this.servers = servers;
    }

    /**
     * Starts a proxy on every route that {@code layout} reserved, if it reserved any.
     *
     * @throws EnsembleException if a reserved port cannot be bound; {@code layout} is then released
     */
    static Partitions start(Layout layout, String ensembleName, Servers servers) {
        if (layout.routes().isEmpty()) {
            return new Partitions(null, servers);
        }
        try {
            return new Partitions(PeerProxies.start(layout, ensembleName), servers);
        } catch (IOException e) {
            layout.release();
            throw new EnsembleException("cannot bind the proxies between servers on their reserved ports: " + e.getMessage(), e);
        }
    }

    /** {@return whether server-to-server traffic runs through proxies} */
    boolean enabled() {
        return proxies != null;
    }

    /**
     * Cuts every route between the servers in {@code side} and the rest.
     *
     * @throws UnsupportedOperationException without peer proxies
     * @throws IllegalArgumentException if {@code side} names no server, a server that does not
     *     exist, or every server
     */
    void cut(Set<Integer> side, PartitionStyle style) {
        Objects.requireNonNull(side, "side");
        Objects.requireNonNull(style, "style");
        PeerProxies peers = require("partition(" + side + ")");
        side.forEach(servers::node);
        if (side.isEmpty() || side.size() >= servers.size()) {
            throw new IllegalArgumentException("a partition side must hold some but not all of the servers "
                + servers.ids() + ", was " + side);
        }
        peers.cutBetween(side, servers.ids(), style == PartitionStyle.SILENT);
    }

    /**
     * Restores every route.
     *
     * @throws UnsupportedOperationException without peer proxies
     */
    void healAll() {
        require("healPartitions()").healAll();
    }

    /** {@return the servers whose traffic reaches server {@code id}, itself included} */
    Set<Integer> reachableFrom(int id) {
        servers.node(id);
        return proxies == null ? servers.ids() : proxies.reachableFrom(id);
    }

    private PeerProxies require(String operation) {
        if (proxies == null) {
            throw new UnsupportedOperationException(operation + " needs an ensemble built with peerProxies(true)"
                + (servers.size() == 1 ? " and at least two servers" : "") + "; this one connects its servers directly");
        }
        return proxies;
    }

    @Override
    public void close() {
        if (proxies != null) {
            proxies.close();
        }
    }
}
