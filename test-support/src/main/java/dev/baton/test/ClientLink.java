package dev.baton.test;

import dev.baton.server.EmbeddedEnsemble;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * One client's road to every server of an ensemble: a {@link ChaosProxy} in front of each server,
 * joined into one connect string. The client can still fail over between servers, and the whole
 * link can be cut, delayed or paused at once.
 */
public final class ClientLink implements AutoCloseable {
    private final List<ChaosProxy> proxies = new ArrayList<>();
    private volatile boolean closed;

    private ClientLink(EmbeddedEnsemble ensemble) {
        for (int id = 1; id <= ensemble.size(); id++) {
            proxies.add(ChaosProxy.start(ensemble.connectString(id)));
        }
    }

    /**
     * {@return a proxy in front of each server of {@code ensemble}}
     *
     * @param ensemble the ensemble to put the proxies in front of
     * @throws IllegalStateException if {@code ensemble} is closed
     */
    public static ClientLink to(EmbeddedEnsemble ensemble) {
        Objects.requireNonNull(ensemble, "ensemble");
        if (ensemble.isClosed()) {
            // its ports are free: the proxies would lead nowhere, or to whatever binds them next
            throw new IllegalStateException(ensemble + " is closed: a link to it would reach no server, and a fault "
                + "through it would prove nothing; link to an ensemble that is still open");
        }
        return new ClientLink(ensemble);
    }

    /** {@return connect string through the proxies} */
    public String connectString() {
        return proxies.stream().map(ChaosProxy::connectString).collect(Collectors.joining(","));
    }

    /**
     * {@return connect string through the proxy in front of server {@code id} alone} A client on
     * it cannot fail over: it stays with that server, for a test that must know where a client is
     * (for instance to cut that server off from the others).
     *
     * @param id the server, 1-based as in {@link EmbeddedEnsemble#connectString(int)}
     */
    public String connectString(int id) {
        if (id < 1 || id > proxies.size()) {
            throw new IllegalArgumentException("server id must be 1.." + proxies.size() + ", was " + id);
        }
        return proxies.get(id - 1).connectString();
    }

    /**
     * Drops every connection through the proxies and refuses new ones until {@link #heal()}.
     *
     * @throws IllegalStateException if the link is closed (the cut would provoke nothing)
     */
    public void cut() {
        ensureOpen("cut()");
        proxies.forEach(ChaosProxy::cut);
    }

    /** Lets connections through again and removes any delay; on a closed link, nothing. */
    public void heal() {
        proxies.forEach(ChaosProxy::heal);
        proxies.forEach(p -> p.delay(Duration.ZERO));
    }

    /**
     * Holds each chunk of traffic for {@code latency}, both ways.
     *
     * @param latency how long to hold each chunk, zero for none
     * @throws IllegalArgumentException if {@code latency} is negative (closed or not: a wrong argument is reported first)
     * @throws IllegalStateException if the link is closed and {@code latency} is not zero
     */
    public void delay(Duration latency) {
        Objects.requireNonNull(latency, "latency");
        if (latency.isNegative()) {
            // the caller's mistake, reported as such whether or not the link is still open
            throw new IllegalArgumentException("latency must not be negative, was " + latency);
        }
        if (!latency.isZero()) {
            ensureOpen("delay()");
        }
        proxies.forEach(p -> p.delay(latency));
    }

    /**
     * Holds all traffic both ways, connections open: the client looks frozen to the servers.
     *
     * @throws IllegalStateException if the link is closed
     */
    public void pause() {
        ensureOpen("pause()");
        proxies.forEach(ChaosProxy::pause);
    }

    /** Lets traffic held by {@link #pause()} flow again; on a closed link, nothing. */
    public void resume() {
        proxies.forEach(ChaosProxy::resume);
    }

    /**
     * Closes the proxies. A fault asked of a closed link ({@link #cut()}, {@link #pause()}, a
     * non-zero {@link #delay(Duration)}) throws {@link IllegalStateException}, as {@link ChaosProxy} does;
     * healing and resuming do nothing.
     */
    @Override
    public void close() {
        closed = true;
        proxies.forEach(ChaosProxy::close);
    }

    private void ensureOpen(String fault) {
        if (closed) {
            throw new IllegalStateException("the client link " + connectString() + " is closed: " + fault
                + " would provoke nothing; make a new ClientLink for the fault");
        }
    }
}
