package dev.baton.framework.internal;

import dev.baton.framework.ServerCapabilities;
import dev.baton.framework.ServerCapabilities.Feature;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.client.FourLetterWordMain;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.common.X509Exception;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Learns {@link ServerCapabilities} of the server a handle is connected to (the algorithm is
 * described there). Every probe is a request that cannot leave anything behind: creates go under
 * a parent that does not exist ({@code /baton-probe-<uuid>}), so a server that understands them
 * answers "no node" and one that does not answers "unimplemented"; the watch probe watches that
 * same absent path and is removed at once; the reads read nothing of the caller's.
 *
 * <p>Cost per session: with {@code srvr} answered, one four-letter-word exchange on a
 * connection of its own plus one request (the TTL probe); without it, six requests, sent
 * together. Nothing here fails the client: an error leaves the feature unknown.
 */
public final class ServerProbe {
    private static final Logger LOG = LoggerFactory.getLogger(ServerProbe.class);
    private static final String VERSION_FIELD = "Zookeeper version:";

    private final ZooKeeper zk;
    private final ZKClientConfig clientConfig;
    private final Duration timeout;
    /** Under no node of the caller's: every probe's path is below this absent one. */
    private final String absent = "/baton-probe-" + UUID.randomUUID();

    ServerProbe(ZooKeeper zk, ZKClientConfig clientConfig, Duration timeout) {
        this.zk = zk;
        this.clientConfig = clientConfig;
        this.timeout = timeout;
    }

    /**
     * The feature probes alone, as sent when the server does not answer {@code srvr}: for tests
     * against a server that does answer it.
     *
     * @param zk a connected handle
     * @return what the probes learned; never completes exceptionally
     */
    public static CompletableFuture<ServerCapabilities> probeFeatures(ZooKeeper zk) {
        ServerProbe probe = new ServerProbe(zk, null, Duration.ofSeconds(5));
        return probe.probeEach().thenCombine(probe.ttlProbe(), (c, ttl) -> learned(c, Feature.TTL_NODES, ttl));
    }

    /** Learns what it can; never completes exceptionally. */
    CompletableFuture<ServerCapabilities> learn() {
        CompletableFuture<Optional<String>> version = askVersion();
        CompletableFuture<Boolean> ttl = ttlProbe();
        return version.thenCompose(v -> {
            ServerCapabilities known = v.map(ServerCapabilities::ofVersion).orElseGet(ServerCapabilities::unknown);
            CompletableFuture<ServerCapabilities> learned = v.isPresent()
                ? CompletableFuture.completedFuture(known)
                : probeEach();
            return learned.thenCombine(ttl, (capabilities, ttlOn) -> ttlOn == null || capabilities.lacks(Feature.TTL_NODES)
                ? capabilities
                : capabilities.with(Feature.TTL_NODES, ttlOn));
        }).exceptionally(e -> {
            LOG.debug("could not learn the server's capabilities", e);
            return ServerCapabilities.unknown();
        });
    }

    /** What a probe's result code says of the feature: understood (true), refused (false), or unknown (null). */
    static Boolean understood(int rc) {
        KeeperException.Code code = KeeperException.Code.get(rc);
        if (code == null) {
            return null;
        }
        return switch (code) {
            case UNIMPLEMENTED -> false;
            case CONNECTIONLOSS, SESSIONEXPIRED, SESSIONMOVED, OPERATIONTIMEOUT, REQUESTTIMEOUT, NOTREADONLY, THROTTLEDOP,
                 SYSTEMERROR, RUNTIMEINCONSISTENCY, DATAINCONSISTENCY, MARSHALLINGERROR, BADARGUMENTS, NEWCONFIGNOQUORUM,
                 RECONFIGINPROGRESS, RECONFIGDISABLED, SESSIONCLOSEDREQUIRESASLAUTH, QUOTAEXCEEDED -> null;
            default -> true; // OK, NONODE, NOAUTH, ...: the server knew the request
        };
    }

    /** The version in a {@code srvr} answer ({@code "3.9.5"} of "Zookeeper version: 3.9.5-293c..., built on ..."), if any. */
    static Optional<String> versionIn(String srvr) {
        for (String line : srvr.split("\n")) {
            if (line.startsWith(VERSION_FIELD)) {
                String value = line.substring(VERSION_FIELD.length()).trim();
                int end = 0;
                while (end < value.length() && (Character.isDigit(value.charAt(end)) || value.charAt(end) == '.')) {
                    end++;
                }
                String version = value.substring(0, end);
                return version.matches("\\d+\\.\\d+\\.\\d+") ? Optional.of(version) : Optional.empty();
            }
        }
        return Optional.empty();
    }

    /** The host and port of {@code remote} as {@link ServerAddress} gives it ({@code name/1.2.3.4:2181}), preferring the address. */
    static Optional<String[]> hostAndPort(String remote) {
        int colon = remote.lastIndexOf(':');
        if (colon < 0) {
            return Optional.empty();
        }
        String host = remote.substring(0, colon);
        int slash = host.indexOf('/');
        if (slash >= 0) {
            host = slash + 1 < host.length() ? host.substring(slash + 1) : host.substring(0, slash);
        }
        return host.isEmpty() ? Optional.empty() : Optional.of(new String[] {host, remote.substring(colon + 1)});
    }

    /** {@code srvr} on the connected server, over a connection of its own (TLS if the client's is), on a thread of its own. */
    private CompletableFuture<Optional<String>> askVersion() {
        Optional<String[]> server = ServerAddress.of(zk).flatMap(ServerProbe::hostAndPort);
        if (server.isEmpty()) {
            return CompletableFuture.completedFuture(Optional.empty());
        }
        CompletableFuture<Optional<String>> answer = new CompletableFuture<>();
        Thread asker = new Thread(() -> {
            try {
                int port = Integer.parseInt(server.get()[1]);
                ZKClientConfig config = clientConfig != null ? clientConfig : new ZKClientConfig();
                String srvr = FourLetterWordMain.send4LetterWord(server.get()[0], port, "srvr", config, (int) timeout.toMillis());
                answer.complete(versionIn(srvr));
            } catch (IOException | X509Exception.SSLContextException | RuntimeException e) {
                LOG.debug("srvr not answered by {}: {}", String.join(":", server.get()), e.toString());
                answer.complete(Optional.empty());
            }
        }, "baton-server-probe");
        asker.setDaemon(true);
        asker.start();
        return answer;
    }

    /** A TTL create under the absent parent: refused as unimplemented when TTL nodes are off, "no node" when on. */
    private CompletableFuture<Boolean> ttlProbe() {
        CompletableFuture<Boolean> f = new CompletableFuture<>();
        zk.create(absent + "/ttl", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT_WITH_TTL,
            (rc, path, ctx, name, stat) -> f.complete(understood(rc)), null, 1000L);
        return f;
    }

    /** Each feature probed, when the version is unknown. */
    private CompletableFuture<ServerCapabilities> probeEach() {
        CompletableFuture<Boolean> create2 = new CompletableFuture<>();
        zk.create(absent + "/create2", new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT,
            (rc, path, ctx, name, stat) -> create2.complete(understood(rc)), null);
        CompletableFuture<Boolean> ephemerals = new CompletableFuture<>();
        zk.getEphemerals(absent, (rc, ctx, paths) -> ephemerals.complete(understood(rc)), null);
        CompletableFuture<Boolean> multiRead = new CompletableFuture<>();
        zk.multi(List.of(Op.getData(absent)), (rc, path, ctx, results) -> multiRead.complete(
            results != null && !results.isEmpty() ? Boolean.TRUE : understood(rc)), null);
        // Persistent recursive watches came in the same release as getEphemerals (3.6.0) and cannot
        // be switched off: they are inferred from it, not probed with an addWatch. The probe's
        // watch would have to be removed, and a removeWatches in flight when the connection drops
        // makes ZooKeeper's event thread swallow the Disconnected that follows (the removal's
        // failure is queued with that state first): listeners heard SUSPENDED only at the
        // reconnect (ConnectionStatesTest in CI at 3af8e9c: "a state change within PT20S").
        return CompletableFuture.allOf(create2, ephemerals, multiRead).thenApply(v -> {
            ServerCapabilities c = ServerCapabilities.unknown();
            c = learned(c, Feature.CREATE2, create2.join());
            c = learned(c, Feature.GET_EPHEMERALS, ephemerals.join());
            c = learned(c, Feature.MULTI_READ, multiRead.join());
            return learned(c, Feature.PERSISTENT_RECURSIVE_WATCHES, ephemerals.join());
        });
    }

    private static ServerCapabilities learned(ServerCapabilities c, Feature feature, Boolean answer) {
        return answer == null ? c : c.with(feature, answer);
    }
}
