package dev.baton.server.internal;

import dev.baton.server.ServerRole;
import java.io.IOException;
import java.time.Duration;
import org.apache.zookeeper.server.ContainerManager;
import org.apache.zookeeper.server.RequestProcessor;
import org.apache.zookeeper.server.ServerCnxnFactory;
import org.apache.zookeeper.server.ZKDatabase;
import org.apache.zookeeper.server.ZooKeeperServer;
import org.apache.zookeeper.server.persistence.FileTxnSnapLog;

/** The single server of a one-node ensemble: ZooKeeper's own standalone server, in this JVM. */
public final class StandaloneNode extends InProcessNode {
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);

    private FileTxnSnapLog txnLog;
    private Server server;
    private ServerCnxnFactory connections;
    private ContainerManager containers;

    public StandaloneNode(NodeSpec spec, ServerSettings settings, String ensembleName) {
        super(spec, settings, ensembleName, STOP_TIMEOUT);
    }

    @Override
    public synchronized void start() throws IOException {
        if (server != null) {
            return;
        }
        startInGroup(() -> {
            startServer();
            return null;
        });
    }

    private void startServer() throws IOException, InterruptedException {
        ServerSettings settings = settings();
        txnLog = openTxnLog();
        int tick = settings.tickMillis();
        server = new Server(txnLog, tick,
            (int) settings.minSessionTimeout().toMillis(), (int) settings.maxSessionTimeout().toMillis());
        txnLog.setServerStats(server.serverStats());
        connections = ServerCnxnFactory.createFactory();
        connections.configure(clientAddress(), settings.maxClientConnections(), -1, false);
        connections.startup(server);
        containers = new ContainerManager(server.getZKDatabase(), server.firstProcessor(),
            Integer.getInteger("znode.container.checkIntervalMs", 1000), 10_000, 0);
        containers.start();
    }

    @Override
    public synchronized void stop() {
        if (containers != null) {
            containers.stop();
        }
        if (connections != null) {
            connections.shutdown();
        }
        if (server != null) {
            server.shutdown(true);
        }
        if (txnLog != null) {
            try {
                txnLog.close();
            } catch (IOException ignored) {
                // closing a log we are abandoning; nothing to recover
            }
        }
        containers = null;
        connections = null;
        server = null;
        txnLog = null;
        awaitThreadsEnded();
    }

    @Override
    public synchronized ServerRole role() {
        return server != null && server.isRunning() ? ServerRole.STANDALONE : ServerRole.STOPPED;
    }

    /** ZooKeeper's server, with the first request processor visible to the container manager. */
    private static final class Server extends ZooKeeperServer {
        Server(FileTxnSnapLog log, int tick, int minSession, int maxSession) {
            super(log, tick, minSession, maxSession, -1, new ZKDatabase(log), "");
        }

        RequestProcessor firstProcessor() {
            return firstProcessor;
        }
    }
}
