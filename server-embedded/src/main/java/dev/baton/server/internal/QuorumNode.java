package dev.baton.server.internal;

import dev.baton.server.ServerRole;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Properties;
import org.apache.zookeeper.server.ServerCnxnFactory;
import org.apache.zookeeper.server.ZKDatabase;
import org.apache.zookeeper.server.ZooKeeperServer;
import org.apache.zookeeper.server.quorum.QuorumPeer;
import org.apache.zookeeper.server.quorum.QuorumPeerConfig;

/**
 * One member of a replicated ensemble: ZooKeeper's own {@link QuorumPeer} (fast leader election,
 * Zab, learner sync), configured and started in this JVM the way ZooKeeper's
 * {@code QuorumPeerMain} does it, minus the parts an embedded server must not do (JMX, an admin
 * web server, exiting the JVM).
 */
public final class QuorumNode extends InProcessNode {
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(15);

    private final PeerView view;

    private QuorumPeer peer;

    public QuorumNode(NodeSpec spec, PeerView view, ServerSettings settings, String ensembleName) {
        super(spec, settings, ensembleName, STOP_TIMEOUT);
        this.view = view;
    }

    @Override
    public synchronized void start() throws IOException {
        if (peer != null) {
            return;
        }
        peer = startInGroup(this::startPeer);
    }

    /** What {@code start()} reports for a failure that is not an I/O error of its own. */
    private IOException startFailed(Exception cause) {
        return new IOException("server " + spec().id() + " failed to start: " + cause.getMessage(), cause);
    }

    private QuorumPeer startPeer() throws IOException {
        NodeSpec spec = spec();
        Files.writeString(spec.dataDir().resolve("myid"), Integer.toString(spec.id()), StandardCharsets.US_ASCII);
        QuorumPeerConfig config = new QuorumPeerConfig();
        try {
            config.parseProperties(properties());
        } catch (QuorumPeerConfig.ConfigException e) {
            throw startFailed(e);
        }

        ServerCnxnFactory connections = ServerCnxnFactory.createFactory();
        connections.configure(config.getClientPortAddress(), config.getMaxClientCnxns(), -1, false);

        QuorumPeer created = new QuorumPeer();
        created.setTxnFactory(openTxnLog());
        created.setElectionType(config.getElectionAlg());
        created.setMyid(config.getServerId());
        created.setTickTime(config.getTickTime());
        created.setMinSessionTimeout(config.getMinSessionTimeout());
        created.setMaxSessionTimeout(config.getMaxSessionTimeout());
        created.setInitLimit(config.getInitLimit());
        created.setSyncLimit(config.getSyncLimit());
        created.setConnectToLearnerMasterLimit(config.getConnectToLearnerMasterLimit());
        created.setClientPortListenBacklog(config.getClientPortListenBacklog());
        created.setZKDatabase(new ZKDatabase(created.getTxnFactory()));
        created.setQuorumVerifier(config.getQuorumVerifier(), false);
        created.initConfigInZKDatabase();
        created.setCnxnFactory(connections);
        created.setLearnerType(config.getPeerType());
        created.setSyncEnabled(config.getSyncEnabled());
        created.enableLocalSessions(config.areLocalSessionsEnabled());
        created.enableLocalSessionsUpgrading(config.isLocalSessionsUpgradingEnabled());
        created.setQuorumListenOnAllIPs(false);
        created.setMultiAddressEnabled(false);
        created.initialize();
        created.start();
        return created;
    }

    private Properties properties() {
        NodeSpec spec = spec();
        ServerSettings settings = settings();
        Properties p = new Properties();
        p.setProperty("dataDir", spec.dataDir().toAbsolutePath().toString());
        p.setProperty("clientPort", Integer.toString(spec.clientPort()));
        p.setProperty("clientPortAddress", InetAddress.getLoopbackAddress().getHostAddress());
        p.setProperty("tickTime", Integer.toString(settings.tickMillis()));
        p.setProperty("initLimit", Integer.toString(settings.initLimit()));
        p.setProperty("syncLimit", Integer.toString(settings.syncLimit()));
        p.setProperty("minSessionTimeout", Long.toString(settings.minSessionTimeout().toMillis()));
        p.setProperty("maxSessionTimeout", Long.toString(settings.maxSessionTimeout().toMillis()));
        p.setProperty("maxClientCnxns", Integer.toString(settings.maxClientConnections()));
        p.setProperty("localSessionsEnabled", Boolean.toString(settings.localSessions()));
        p.setProperty("localSessionsUpgradingEnabled", Boolean.toString(settings.localSessions()));
        p.setProperty("reconfigEnabled", "false");
        p.setProperty("standaloneEnabled", "false");
        view.serverLines().forEach(p::setProperty);
        return p;
    }

    @Override
    public void stop() {
        QuorumPeer stopping;
        synchronized (this) {
            stopping = peer;
            peer = null;
        }
        if (stopping != null) {
            stopping.shutdown();
            try {
                stopping.join(STOP_TIMEOUT.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        awaitThreadsEnded();
    }

    @Override
    public ServerRole role() {
        QuorumPeer current;
        synchronized (this) {
            current = peer;
        }
        if (current == null || !current.isRunning()) {
            return ServerRole.STOPPED;
        }
        ZooKeeperServer active = current.getActiveServer();
        boolean serving = active != null && active.isRunning();
        return switch (current.getPeerState()) {
            case LEADING -> serving ? ServerRole.LEADER : ServerRole.LOOKING;
            case FOLLOWING, OBSERVING -> serving ? ServerRole.FOLLOWER : ServerRole.LOOKING;
            case LOOKING -> ServerRole.LOOKING;
        };
    }
}
