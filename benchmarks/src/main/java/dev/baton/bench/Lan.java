package dev.baton.bench;

import dev.baton.test.ChaosProxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.StringJoiner;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A network between every benchmark client and the ensemble: {@code --lan <one-way latency>}.
 *
 * <p>While a latency is set, {@link #route} gives each client it is asked for a delay proxy of
 * its own in front of each server of the connect string (test-support's {@link ChaosProxy}: the
 * latency is held in each direction on its own, byte order is kept, and chunks are held side by
 * side, so nothing caps the rate). Clients do not share a proxy, as processes on different hosts
 * share no link; the servers talk to each other directly (one data centre, the clients a LAN or
 * an availability zone away). A latency of zero still goes through the proxies, so the 0 column
 * pays the same copying as the others; without {@code --lan} clients connect directly.
 *
 * <p>{@code --lan 0,0.5ms,2ms} runs the whole benchmark once per latency, one after the other, in
 * one JVM, each on a fresh ensemble (see {@link Bench}).
 */
final class Lan {
    private static volatile Duration oneWay;
    private static final List<ChaosProxy> PROXIES = new CopyOnWriteArrayList<>();

    private Lan() {
    }

    /** {@return {@code connect} as one client should use it: through proxies of its own while a latency is set} */
    static String route(String connect) {
        Duration latency = oneWay;
        if (latency == null) {
            return connect;
        }
        int slash = connect.indexOf('/');
        String hosts = slash < 0 ? connect : connect.substring(0, slash);
        String chroot = slash < 0 ? "" : connect.substring(slash);
        StringJoiner routed = new StringJoiner(",");
        for (String hostPort : hosts.split(",")) {
            ChaosProxy proxy = ChaosProxy.start(hostPort.trim());
            proxy.delay(latency);
            PROXIES.add(proxy);
            routed.add(proxy.connectString());
        }
        return routed + chroot;
    }

    /** {@return the one-way latency in force, or {@code null} when clients connect directly} */
    static Duration oneWay() {
        return oneWay;
    }

    /** {@return how a report names the latency in force} */
    static String describe() {
        return oneWay == null ? "direct (no proxy)" : format(oneWay) + " one way, each client behind its own delay proxy";
    }

    static String format(Duration latency) {
        return String.format(Locale.ROOT, "%.2g ms", latency.toNanos() / 1e6).replace(".0 ms", " ms");
    }

    /**
     * Runs {@code body} with {@code latency} in force (clients created by it get proxies), then
     * closes every proxy it made.
     */
    static void at(Duration latency, Bench.BenchmarkMain body, String[] args) throws Exception {
        oneWay = latency;
        try {
            body.run(args);
        } finally {
            oneWay = null;
            PROXIES.forEach(ChaosProxy::close);
            PROXIES.clear();
        }
    }

    /**
     * Parses a list of one-way latencies: {@code 0}, {@code 0.5ms}, {@code 2ms}, {@code 500us},
     * separated by commas.
     *
     * @throws IllegalArgumentException naming the entry that is not a latency
     */
    static List<Duration> parse(String list) {
        List<Duration> out = new ArrayList<>();
        for (String entry : list.split(",")) {
            String text = entry.trim().toLowerCase(Locale.ROOT);
            double factor;
            String number;
            if (text.endsWith("ms")) {
                factor = 1e6;
                number = text.substring(0, text.length() - 2);
            } else if (text.endsWith("us")) {
                factor = 1e3;
                number = text.substring(0, text.length() - 2);
            } else if (text.equals("0")) {
                factor = 0;
                number = "0";
            } else {
                throw new IllegalArgumentException("--lan expects one-way latencies such as 0,0.5ms,2ms; got '" + entry + "'");
            }
            double value;
            try {
                value = Double.parseDouble(number);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--lan expects one-way latencies such as 0,0.5ms,2ms; got '" + entry + "'");
            }
            if (value < 0) {
                throw new IllegalArgumentException("--lan latency must not be negative, got '" + entry + "'");
            }
            out.add(Duration.ofNanos(Math.round(value * factor)));
        }
        return out;
    }
}
