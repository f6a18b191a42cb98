package dev.baton.test.history;

import dev.baton.server.EmbeddedEnsemble;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.apache.jute.Record;
import org.apache.zookeeper.ZooDefs.OpCode;
import org.apache.zookeeper.server.ByteBufferInputStream;
import org.apache.zookeeper.server.persistence.FileTxnLog;
import org.apache.zookeeper.server.persistence.TxnLog.TxnIterator;
import org.apache.zookeeper.txn.CloseSessionTxn;
import org.apache.zookeeper.txn.CreateContainerTxn;
import org.apache.zookeeper.txn.CreateTTLTxn;
import org.apache.zookeeper.txn.CreateTxn;
import org.apache.zookeeper.txn.DeleteTxn;
import org.apache.zookeeper.txn.MultiTxn;
import org.apache.zookeeper.txn.Txn;
import org.apache.zookeeper.txn.TxnHeader;

/**
 * What the servers committed, read from their transaction logs: every creation and deletion of a
 * node under the watched folders, and every session end, with its zxid. {@link ServerTruth}
 * completes its observers' record with it, so a node whose whole life fell while every observer
 * was reconnecting is still known, with exact zxids.
 *
 * <p>Which entries count: a server logs (and flushes to the file) a proposal before it
 * acknowledges it, and the leader commits only on acknowledgements from a majority, so every
 * committed transaction is in the logs of a majority of the servers. A proposal only the old
 * leader logged before it died was never committed (Zab's election picks a server holding every
 * committed transaction, and a majority-logged proposal is carried into the new epoch), and is
 * dropped by the same rule: an entry counts when a majority of the servers' logs hold its zxid.
 * Logs are never purged in the embedded ensemble, and a server synchronised by snapshot keeps its
 * old files, so nothing committed leaves a majority of the logs.
 */
final class ServerLogs {
    /** A node created (with its data and, if ephemeral, its owner session) or deleted. */
    record Change(String path, boolean created, byte[] data, long owner) {
    }

    /**
     * One committed transaction that changed a watched node or ended a session.
     *
     * @param wallMillis the leader's wall-clock time when it proposed the transaction (before the commit)
     * @param session the session that asked for it
     * @param closesSession whether it ended {@code session}
     * @param pathsKnown for a session end, whether the log lists the ephemeral nodes it deleted
     *     (ZooKeeper's {@code zookeeper.closeSessionTxn.enabled}); if not, the reader deletes the
     *     session's ephemeral nodes itself
     */
    record Entry(long zxid, long wallMillis, long session, boolean closesSession, boolean pathsKnown,
                 List<Change> changes) {
    }

    /**
     * The committed entries after a zxid, in zxid order; the zxid of the last committed
     * transaction read (of any kind); whatever could not be read.
     */
    record Read(List<Entry> entries, long committedThrough, List<String> problems) {
    }

    private ServerLogs() {
    }

    /** Reads the committed transactions after {@code afterZxid} that touch {@code watched} paths or end a session. */
    static Read committed(EmbeddedEnsemble ensemble, long afterZxid, Predicate<String> watched) {
        Map<Long, Entry> entries = new TreeMap<>();
        Map<Long, Integer> copies = new HashMap<>();
        List<String> problems = new ArrayList<>();
        for (int id = 1; id <= ensemble.size(); id++) {
            Path dir = ensemble.dataDir().resolve("node-" + id).resolve("version-2");
            if (!Files.isDirectory(dir)) {
                problems.add("server " + id + " has no transaction log folder " + dir);
                continue;
            }
            readOne(id, dir, afterZxid, watched, entries, copies, problems);
        }
        int majority = ensemble.size() / 2 + 1;
        List<Entry> committed = new ArrayList<>();
        long through = afterZxid;
        for (Map.Entry<Long, Integer> copy : copies.entrySet()) {
            if (copy.getValue() >= majority) {
                through = Math.max(through, copy.getKey());
                Entry entry = entries.get(copy.getKey());
                if (entry != null) {
                    committed.add(entry);
                }
            }
        }
        committed.sort(java.util.Comparator.comparingLong(Entry::zxid));
        return new Read(committed, through, problems);
    }

    private static void readOne(int id, Path dir, long afterZxid, Predicate<String> watched, Map<Long, Entry> entries,
                                Map<Long, Integer> copies, List<String> problems) {
        long last = afterZxid;
        // a torn last entry (a server writing as we read) fails its checksum: read once more
        for (int attempt = 1; attempt <= 3; attempt++) {
            Map<Long, Entry> mine = new HashMap<>();
            try (FileTxnLog log = new FileTxnLog(dir.toFile()); TxnIterator it = log.read(afterZxid + 1)) {
                for (boolean more = it.getHeader() != null; more; more = it.next()) {
                    TxnHeader header = it.getHeader();
                    if (header.getZxid() <= afterZxid || mine.containsKey(header.getZxid())) {
                        continue;
                    }
                    last = header.getZxid();
                    mine.put(header.getZxid(), parse(header, it.getTxn(), watched));
                }
                mine.forEach((zxid, entry) -> {
                    copies.merge(zxid, 1, Integer::sum);
                    if (entry != null) {
                        entries.putIfAbsent(zxid, entry);
                    }
                });
                return;
            } catch (IOException | RuntimeException e) {
                if (attempt == 3) {
                    problems.add("server " + id + "'s transaction log could not be read past zxid 0x" + Long.toHexString(last)
                        + ": " + e);
                }
            }
        }
    }

    /** The entry for one logged transaction, or null when it touches nothing watched and ends no session. */
    private static Entry parse(TxnHeader header, Record txn, Predicate<String> watched) throws IOException {
        List<Change> changes = new ArrayList<>();
        if (header.getType() == OpCode.closeSession) {
            boolean pathsKnown = txn instanceof CloseSessionTxn;
            if (pathsKnown) {
                for (String path : ((CloseSessionTxn) txn).getPaths2Delete()) {
                    if (watched.test(path)) {
                        changes.add(new Change(path, false, null, 0));
                    }
                }
            }
            return new Entry(header.getZxid(), header.getTime(), header.getClientId(), true, pathsKnown, changes);
        }
        if (header.getType() == OpCode.multi && txn instanceof MultiTxn multi) {
            for (Txn sub : multi.getTxns()) {
                Record record = record(sub.getType());
                if (record != null) {
                    ByteBufferInputStream.byteBuffer2Record(ByteBuffer.wrap(sub.getData()), record);
                    change(record, header.getClientId(), watched, changes);
                }
            }
        } else if (txn != null) {
            change(txn, header.getClientId(), watched, changes);
        }
        return changes.isEmpty() ? null
            : new Entry(header.getZxid(), header.getTime(), header.getClientId(), false, true, changes);
    }

    /** An empty record for a sub-transaction type that creates or deletes a node; null for the others (errors among them). */
    private static Record record(int type) {
        return switch (type) {
            case OpCode.create, OpCode.create2 -> new CreateTxn();
            case OpCode.createContainer -> new CreateContainerTxn();
            case OpCode.createTTL -> new CreateTTLTxn();
            case OpCode.delete, OpCode.deleteContainer -> new DeleteTxn();
            default -> null;
        };
    }

    private static void change(Record txn, long session, Predicate<String> watched, List<Change> changes) {
        if (txn instanceof CreateTxn c && watched.test(c.getPath())) {
            changes.add(new Change(c.getPath(), true, c.getData(), c.getEphemeral() ? session : 0));
        } else if (txn instanceof CreateContainerTxn c && watched.test(c.getPath())) {
            changes.add(new Change(c.getPath(), true, c.getData(), 0));
        } else if (txn instanceof CreateTTLTxn c && watched.test(c.getPath())) {
            changes.add(new Change(c.getPath(), true, c.getData(), 0));
        } else if (txn instanceof DeleteTxn d && watched.test(d.getPath())) {
            changes.add(new Change(d.getPath(), false, null, 0));
        }
    }
}
