package dev.baton.server.internal;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import org.apache.zookeeper.server.persistence.FileTxnSnapLog;

/**
 * What the two servers that run in this JVM ({@link StandaloneNode}, {@link QuorumNode}) share:
 * ZooKeeper is started on a thread of the node's own group ({@link NodeThreads}), so that a stop
 * can wait until every thread the server made has ended; a start that fails stops what it began.
 */
abstract class InProcessNode implements ServerNode {
    private final NodeSpec spec;
    private final ServerSettings settings;
    private final NodeThreads threads;
    private final Duration stopTimeout;

    InProcessNode(NodeSpec spec, ServerSettings settings, String ensembleName, Duration stopTimeout) {
        this.spec = spec;
        this.settings = settings;
        this.threads = new NodeThreads(ensembleName + "-server-" + spec.id());
        this.stopTimeout = stopTimeout;
    }

    @Override
    public final NodeSpec spec() {
        return spec;
    }

    final ServerSettings settings() {
        return settings;
    }

    /** The loopback address of this server's client port. */
    final InetSocketAddress clientAddress() {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), spec.clientPort());
    }

    /** Runs {@code start} on a thread of the node's group; if it fails, {@link #stop()} runs before it is reported. */
    final <T> T startInGroup(NodeThreads.Action<T> start) throws IOException {
        return threads.start(spec.id(), start, this::stop);
    }

    /** Opens the node's transaction log and snapshots, in its data folder. */
    final FileTxnSnapLog openTxnLog() throws IOException {
        return TxnLogs.open(spec.dataDir().toFile(), settings.forceSync());
    }

    /** The end of a stop: waits until the group's threads have ended; an interrupt cuts it short and is kept. */
    final void awaitThreadsEnded() {
        try {
            threads.awaitEmpty(stopTimeout);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
