package dev.baton.server.internal;

import java.io.File;
import java.io.IOException;
import org.apache.zookeeper.server.persistence.FileTxnSnapLog;

/**
 * Opens a server's transaction log and snapshots with this ensemble's fsync setting.
 *
 * <p>ZooKeeper reads {@code zookeeper.forceSync} from a system property when a transaction log is
 * constructed. Baton sets it only around that construction, under a lock, so ensembles in one JVM
 * can differ (tests without fsync, a durable ensemble with it).
 */
final class TxnLogs {
    private static final String FORCE_SYNC = "zookeeper.forceSync";

    private TxnLogs() {
    }

    static synchronized FileTxnSnapLog open(File dir, boolean forceSync) throws IOException {
        String before = System.getProperty(FORCE_SYNC);
        System.setProperty(FORCE_SYNC, forceSync ? "yes" : "no");
        try {
            return new FileTxnSnapLog(dir, dir);
        } finally {
            if (before == null) {
                System.clearProperty(FORCE_SYNC);
            } else {
                System.setProperty(FORCE_SYNC, before);
            }
        }
    }
}
