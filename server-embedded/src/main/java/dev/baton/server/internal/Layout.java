package dev.baton.server.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Where an ensemble's servers live: their data folders and reserved ports, made at build time
 * so a bad folder, a folder another ensemble runs on or a taken port fails there, naming the value.
 *
 * @param root the data folder of the whole ensemble
 * @param temporary whether {@code root} was made for this ensemble (and is deleted with it)
 * @param specs each server's id, ports and folder
 * @param routes with peer proxies, the proxy ports of every directed pair of servers; else empty
 * @param reservations every port held, released when the ensemble closes
 * @param owner this ensemble's lock on {@code root} (see {@link FolderLock}), or null where the
 *     folder's file system takes no lock
 */
public record Layout(Path root, boolean temporary, List<NodeSpec> specs, List<PeerRoute> routes,
                     List<PortReservation> reservations, FolderLock owner) {
    private static final String TEMPORARY_PREFIX = "baton-ensemble-";

    /**
     * The proxied road from server {@code from} to server {@code to}: the ports {@code from}'s
     * configuration lists for {@code to}, where proxies forward to {@code to}'s own ports.
     */
    public record PeerRoute(int from, int to, int quorumPort, int electionPort) {
    }

    /**
     * Makes the folders and reserves the ports of {@code nodes} servers.
     *
     * @param clientPort client port of server 1 (server n gets clientPort + n - 1), or 0 for free ports
     * @param dataDir where to keep data, or null for a temporary folder
     * @param peerProxies whether to reserve a quorum and an election proxy port for every directed
     *     pair of servers
     */
    public static Layout create(int nodes, int clientPort, Path dataDir, boolean peerProxies) {
        boolean temporary = dataDir == null;
        Path root = temporary ? createTempRoot() : prepareDataDir(dataDir);
        FolderLock owner = lock(root, temporary, dataDir);
        if (temporary) {
            // folders of JVMs that died without closing their ensembles (SIGKILL, a killed build)
            FolderLock.deleteAbandoned(root.getParent(), TEMPORARY_PREFIX);
        }
        List<PortReservation> held = new ArrayList<>();
        try {
            List<NodeSpec> specs = reserveServers(nodes, clientPort, root, held);
            List<PeerRoute> routes = peerProxies ? reserveRoutes(nodes, held) : List.of();
            return new Layout(root, temporary, specs, routes, List.copyOf(held), owner);
        } catch (IOException | RuntimeException e) {
            held.forEach(PortReservation::close);
            if (owner != null) {
                owner.close();
            }
            if (temporary) {
                deleteRecursively(root);
            }
            if (e instanceof IOException io) {
                throw new IllegalArgumentException("cannot create server folders under " + root + ": " + io.getMessage(), io);
            }
            throw (RuntimeException) e;
        }
    }

    /**
     * Each server's client port (and, in a quorum, its quorum and election ports) and its folder
     * {@code node-<id>}; every port reserved is added to {@code held}.
     */
    private static List<NodeSpec> reserveServers(int nodes, int clientPort, Path root, List<PortReservation> held)
        throws IOException {
        List<NodeSpec> specs = new ArrayList<>();
        for (int id = 1; id <= nodes; id++) {
            PortReservation client = clientPort > 0 ? PortReservation.exactly(clientPort + id - 1) : PortReservation.anyFree();
            held.add(client);
            int quorum = 0;
            int election = 0;
            if (nodes > 1) {
                quorum = reserveAnyFree(held);
                election = reserveAnyFree(held);
            }
            Path nodeDir = root.resolve("node-" + id);
            Files.createDirectories(nodeDir);
            specs.add(new NodeSpec(id, client.port(), quorum, election, nodeDir));
        }
        return List.copyOf(specs);
    }

    /** A quorum and an election proxy port for every directed pair of servers; every port reserved is added to {@code held}. */
    private static List<PeerRoute> reserveRoutes(int nodes, List<PortReservation> held) {
        List<PeerRoute> routes = new ArrayList<>();
        for (int from = 1; from <= nodes; from++) {
            for (int to = 1; to <= nodes; to++) {
                if (from != to) {
                    routes.add(new PeerRoute(from, to, reserveAnyFree(held), reserveAnyFree(held)));
                }
            }
        }
        return List.copyOf(routes);
    }

    private static int reserveAnyFree(List<PortReservation> held) {
        PortReservation reservation = PortReservation.anyFree();
        held.add(reservation);
        return reservation.port();
    }

    /**
     * The ensemble as server {@code id} sees it: its own ports, and for every peer the proxy ports
     * of the route from {@code id} to it (or the peer's own ports without proxies).
     */
    public PeerView viewFrom(int id) {
        List<NodeSpec> view = new ArrayList<>();
        for (NodeSpec member : specs) {
            NodeSpec seen = member;
            for (PeerRoute route : routes) {
                if (route.from() == id && route.to() == member.id()) {
                    seen = new NodeSpec(member.id(), member.clientPort(), route.quorumPort(), route.electionPort(), member.dataDir());
                }
            }
            view.add(seen);
        }
        return new PeerView(id, List.copyOf(view), !routes.isEmpty());
    }

    /** Frees the ports and the folder's lock, and deletes a temporary data folder. Does nothing more the second time. */
    public void release() {
        reservations.forEach(PortReservation::close);
        if (owner != null) {
            owner.close();
        }
        if (temporary) {
            deleteRecursively(root);
        }
    }

    /**
     * Takes {@code root}'s lock. On a file system that takes no locks (some network ones) the
     * ensemble runs without one, as before locks: unguarded against a second ensemble on the
     * folder, and not deleted by a later build if its JVM is killed.
     */
    private static FolderLock lock(Path root, boolean temporary, Path dataDir) {
        FolderLock owner;
        try {
            owner = FolderLock.tryTake(root, temporary);
        } catch (IOException e) {
            return null;
        }
        if (owner == null) {
            if (temporary) {
                deleteRecursively(root);
                throw new IllegalStateException("the new temporary folder " + root + " is locked by another process");
            }
            throw new IllegalArgumentException("dataDir " + dataDir + " is in use by another running ensemble, in this or "
                + "another process: two ensembles on one folder overwrite each other's data; close that one or choose another folder");
        }
        return owner;
    }

    private static Path createTempRoot() {
        try {
            return Files.createTempDirectory(TEMPORARY_PREFIX);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temporary folder for the ensemble", e);
        }
    }

    private static Path prepareDataDir(Path dir) {
        try {
            Files.createDirectories(dir);
        } catch (java.nio.file.FileAlreadyExistsException e) {
            throw new IllegalArgumentException("dataDir " + dir + " is a file, not a folder", e);
        } catch (IOException e) {
            // the exception's own message is only the path: its type says what went wrong
            throw new IllegalArgumentException("dataDir " + dir + " cannot be created: " + e, e);
        }
        if (!Files.isDirectory(dir) || !Files.isWritable(dir)) {
            throw new IllegalArgumentException("dataDir " + dir + " is not a writable folder");
        }
        return dir;
    }

    static void deleteRecursively(Path root) {
        if (root == null || !Files.exists(root)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not delete ensemble data " + root, e);
        }
    }
}
