package dev.baton.bench;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.baton.server.EmbeddedEnsemble;
import dev.baton.server.ServerMode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.time.Duration;
import java.util.List;

/**
 * The requests an operation costs, counted where they arrive: the servers' per-namespace request
 * counters ({@code mntr}: {@code zk_cnt_<namespace>_read_per_namespace} and
 * {@code ..._write_per_namespace}; the namespace is a path's first component), read before and
 * after a fixed number of operations, so each library works in a namespace of its own. A
 * transaction counts each operation in it; pings, session set-up, {@code sync} and watch
 * notifications are not counted. ({@code zk_packets_received} would count every packet, but
 * in-process servers share and re-create one JVM's metrics, and in a JVM's first ensemble it
 * stayed at zero while clients worked.)
 *
 * <p>In-process servers share one JVM's metrics, so one server's answer counts all three, and
 * every server counts each write it applies: writes are divided by the number of servers.
 * Servers in processes of their own count only what they do: reads are summed, writes taken from
 * the one that applied most.
 *
 * @param ensemble the servers to ask
 */
record Requests(EmbeddedEnsemble ensemble) {
    /** The servers' summaries of watchers triggered per node event ({@code sum}: events sent, to all watchers of all clients). */
    private static final List<String> WATCH_SUMS = List.of("zk_sum_node_created_watch_count", "zk_sum_node_changed_watch_count",
        "zk_sum_node_deleted_watch_count", "zk_sum_node_children_watch_count");

    /** Read and write requests in one namespace. */
    record Count(long reads, long writes) {
        Count minus(Count before) {
            return new Count(reads - before.reads, writes - before.writes);
        }
    }

    /** {@return the read and write requests the servers have counted in {@code namespace} (a path's first component, without the slash)} */
    Count now(String namespace) {
        String readKey = "zk_cnt_" + namespace + "_read_per_namespace";
        String writeKey = "zk_cnt_" + namespace + "_write_per_namespace";
        if (ensemble.mode() == ServerMode.IN_PROCESS) {
            String text = mntr(ensemble.clientPort(1));
            return new Count(value(text, readKey), value(text, writeKey) / ensemble.size());
        }
        long reads = 0;
        long writes = 0;
        for (int id = 1; id <= ensemble.size(); id++) {
            String text = mntr(ensemble.clientPort(id));
            reads += value(text, readKey);
            writes = Math.max(writes, value(text, writeKey));
        }
        return new Count(reads, writes);
    }

    /**
     * {@return the watch events the servers have sent, to all clients} (so counted with one way
     * running at a time): their summaries of watchers triggered per node event, one JVM's metrics
     * for in-process servers, else summed over the servers.
     */
    long watchEvents() {
        long events = 0;
        for (int id = 1; id <= ensemble.size(); id++) {
            String text = mntr(ensemble.clientPort(id));
            for (String sum : WATCH_SUMS) {
                events += value(text, sum);
            }
            if (ensemble.mode() == ServerMode.IN_PROCESS) {
                break;
            }
        }
        return events;
    }

    /** {@return one line of a report: read and write requests per operation} */
    static String line(String who, Count count, int operations) {
        return String.format("  %-46s %6.2f reads + %5.2f writes = %5.2f requests/op", who, count.reads() / (double) operations,
            count.writes() / (double) operations, (count.reads() + count.writes()) / (double) operations);
    }

    /**
     * {@return {@code millis} in round trips at the latency in force, or an empty string at zero or
     * without {@code --lan}} The servers' own time is inside {@code millis}, so this is more than the
     * round trips an operation waits for; the difference between two latencies' values is not.
     */
    static String inRoundTrips(double millis) {
        Duration lan = Lan.oneWay();
        if (lan == null || lan.isZero()) {
            return "";
        }
        return String.format("%.1f RTT", millis / (2 * lan.toNanos() / 1e6));
    }

    /** A counter the servers have not created yet (nothing counted in that namespace) is zero. */
    private static long value(String mntr, String key) {
        for (String line : mntr.split("\n")) {
            String[] kv = line.split("\t");
            if (kv.length == 2 && kv[0].equals(key)) {
                return Math.round(Double.parseDouble(kv[1].trim()));
            }
        }
        return 0;
    }

    private static String mntr(int port) {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.getOutputStream().write("mntr".getBytes(UTF_8));
            socket.getOutputStream().flush();
            return new String(socket.getInputStream().readAllBytes(), UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("mntr on port " + port, e);
        }
    }
}
