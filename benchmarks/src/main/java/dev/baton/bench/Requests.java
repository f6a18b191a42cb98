package dev.baton.bench;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.baton.server.EmbeddedEnsemble;
import dev.baton.server.ServerMode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.time.Duration;

/**
 * What the servers say they received and sent, from each server's {@code mntr}
 * ({@code zk_packets_received}, {@code zk_packets_sent}), summed over the ensemble: the requests
 * an operation costs, counted where they arrive. Only client connections count packets, so the
 * sum is what all clients sent, pings included (servers in one JVM share their metrics, so there
 * one server's answer is already the sum) (an idle client pings every ten seconds or so with the benchmarks' 30 s
 * sessions, so a count over a few seconds of work holds at most a few).
 *
 * @param ensemble the servers to ask
 */
record Requests(EmbeddedEnsemble ensemble) {

    /** Packets received from clients and sent to them, summed over the servers. */
    record Count(long received, long sent) {
        Count minus(Count before) {
            return new Count(received - before.received, sent - before.sent);
        }
    }

    Count now() {
        long received = 0;
        long sent = 0;
        // in-process servers share one JVM's metrics: each server's mntr answers the sum of all three
        int servers = ensemble.mode() == ServerMode.IN_PROCESS ? 1 : ensemble.size();
        for (int id = 1; id <= servers; id++) {
            String text = mntr(ensemble.clientPort(id));
            received += value(text, "zk_packets_received");
            sent += value(text, "zk_packets_sent");
        }
        return new Count(received, sent);
    }

    /** {@return one line of a report: requests, and replies plus watch events, per operation} */
    static String line(String who, Count count, int operations) {
        return String.format("  %-46s %8.2f requests/op %8.2f replies+events/op", who,
            count.received() / (double) operations, count.sent() / (double) operations);
    }

    /** {@return {@code millis} in round trips at the latency in force, or an empty string at zero or without {@code --lan}} */
    static String inRoundTrips(double millis) {
        Duration lan = Lan.oneWay();
        if (lan == null || lan.isZero()) {
            return "";
        }
        return String.format("%.1f RTT", millis / (2 * lan.toNanos() / 1e6));
    }

    private static long value(String mntr, String key) {
        for (String line : mntr.split("\n")) {
            String[] kv = line.split("\t");
            if (kv.length == 2 && kv[0].equals(key)) {
                return Long.parseLong(kv[1].trim());
            }
        }
        throw new IllegalStateException("mntr has no " + key + ": " + mntr);
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
