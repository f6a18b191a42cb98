package dev.baton.test;

import dev.baton.server.internal.TcpProxy;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Objects;

/**
 * A loopback TCP proxy in front of one ZooKeeper server, for provoking connection faults on
 * purpose.
 *
 * <p>A client built with {@link #connectString()} reaches the server only through this proxy.
 * {@link #cut()} drops every live connection and refuses new ones until {@link #heal()}, so the
 * client sees a disconnect and, if the cut lasts longer than its session timeout, an expired
 * session. {@link #delay(Duration)} holds every chunk of data in each direction for that long
 * (order is kept). {@link #pause()} keeps connections open but forwards nothing until
 * {@link #resume()} — not even a close from the other side: the client looks like a process that
 * stopped answering, and hears nothing, not even the servers dropping its connection.
 *
 * <p>The proxying itself is server-embedded's {@code TcpProxy}, the same proxy the ensemble puts
 * between its servers for partitions ({@code EmbeddedEnsemble.partition}).
 *
 * <pre>{@code
 * try (ChaosProxy proxy = ChaosProxy.start(ensemble.connectString(1))) {
 *     ZooKeeper zk = new ZooKeeper(proxy.connectString(), 5000, watcher);
 *     proxy.cut();    // zk sees Disconnected
 *     proxy.heal();   // zk reconnects with the same session
 * }
 * }</pre>
 */
public final class ChaosProxy implements AutoCloseable {
    private final TcpProxy proxy;
    private final String target;
    private volatile boolean closed;

    private ChaosProxy(TcpProxy proxy, String target) {
        this.proxy = proxy;
        this.target = target;
    }

    /**
     * Starts a proxy in front of {@code targetHostPort} ({@code host:port}, one server).
     *
     * @param targetHostPort the server to forward to, {@code host:port}
     * @return the running proxy, on a free loopback port
     * @throws IllegalArgumentException if the target is not a single {@code host:port}
     */
    public static ChaosProxy start(String targetHostPort) {
        Objects.requireNonNull(targetHostPort, "targetHostPort");
        int colon = targetHostPort.lastIndexOf(':');
        if (colon <= 0 || targetHostPort.contains(",")) {
            throw new IllegalArgumentException("target must be one host:port, was '" + targetHostPort + "'");
        }
        int port;
        try {
            port = Integer.parseInt(targetHostPort.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("target port must be a number, was '" + targetHostPort + "'");
        }
        InetSocketAddress target = new InetSocketAddress(targetHostPort.substring(0, colon), port);
        try {
            return new ChaosProxy(TcpProxy.start(target, 0, "baton-chaos-proxy"), targetHostPort);
        } catch (IOException e) {
            throw new IllegalStateException("cannot open a loopback port for the proxy: " + e.getMessage(), e);
        }
    }

    /** {@return where clients connect to go through this proxy, for example {@code 127.0.0.1:40123}} */
    public String connectString() {
        return "127.0.0.1:" + proxy.port();
    }

    /** {@return the proxy's loopback port} */
    public int port() {
        return proxy.port();
    }

    /**
     * Drops every live connection and refuses new ones until {@link #heal()}.
     *
     * @throws IllegalStateException if the proxy is closed (it carries nothing: the cut would provoke nothing)
     */
    public void cut() {
        ensureOpen("cut()");
        proxy.cut();
    }

    /** Accepts connections again after {@link #cut()}, and ends a {@link #pause()}; on a closed proxy, nothing. */
    public void heal() {
        proxy.heal();
    }

    /**
     * Holds each chunk of data for {@code latency} before forwarding it; {@code Duration.ZERO} removes the
     * delay.
     *
     * @param latency how long to hold each chunk, zero for none
     * @throws IllegalArgumentException if {@code latency} is negative (closed or not: a wrong argument is reported first)
     * @throws IllegalStateException if the proxy is closed and {@code latency} is not zero
     */
    public void delay(Duration latency) {
        Objects.requireNonNull(latency, "latency");
        if (latency.isNegative()) {
            // the caller's mistake, reported as such whether or not the proxy is still open
            throw new IllegalArgumentException("latency must not be negative, was " + latency);
        }
        if (!latency.isZero()) {
            ensureOpen("delay()");
        }
        proxy.delay(latency);
    }

    /**
     * Keeps connections open but forwards nothing, in either direction, until {@link #resume()}.
     *
     * @throws IllegalStateException if the proxy is closed
     */
    public void pause() {
        ensureOpen("pause()");
        proxy.pause();
    }

    /**
     * Forwards requests to the server but holds its replies until {@link #resume()}. Followed by
     * {@link #cut()}, it makes a client lose the reply to a request the server did apply — the
     * case idempotent and protected operations exist for.
     *
     * @throws IllegalStateException if the proxy is closed
     */
    public void pauseReplies() {
        ensureOpen("pauseReplies()");
        proxy.pauseReplies();
    }

    /** Forwards what was held during {@link #pause()} or {@link #pauseReplies()}, in order, and continues normally. */
    public void resume() {
        proxy.resume();
    }

    /** {@return connections accepted since the proxy started (refused ones during a cut included)} */
    public int connectionsAccepted() {
        return proxy.connectionsAccepted();
    }

    /** {@return connections currently forwarded} */
    public int liveConnections() {
        return proxy.liveConnections();
    }

    /**
     * Closes every connection and the port. A fault asked of a closed proxy ({@link #cut()},
     * {@link #pause()}, {@link #pauseReplies()}, a non-zero {@link #delay(Duration)}) throws
     * {@link IllegalStateException}: it would provoke nothing, and a fault test would pass without its fault.
     * Healing, resuming and a zero delay do nothing, so a clean-up after {@code close()} does not fail.
     */
    @Override
    public void close() {
        closed = true;
        proxy.close();
    }

    private void ensureOpen(String fault) {
        if (closed) {
            throw new IllegalStateException("the proxy " + connectString() + " -> " + target + " is closed: " + fault
                + " would provoke nothing; start a new ChaosProxy for the fault");
        }
    }
}
