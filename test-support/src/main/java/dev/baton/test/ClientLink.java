package dev.baton.test;

import dev.baton.server.EmbeddedEnsemble;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * One client's road to every server of an ensemble: a {@link ChaosProxy} in front of each server,
 * joined into one connect string. The client can still fail over between servers, and the whole
 * link can be cut, delayed or paused at once.
 */
public final class ClientLink implements AutoCloseable {
    private final List<ChaosProxy> proxies = new ArrayList<>();

    private ClientLink(EmbeddedEnsemble ensemble) {
        for (int id = 1; id <= ensemble.size(); id++) {
            proxies.add(ChaosProxy.start(ensemble.connectString(id)));
        }
    }

    /**
     * {@return a proxy in front of each server of {@code ensemble}}
     *
     * @param ensemble the ensemble to put the proxies in front of
     */
    public static ClientLink to(EmbeddedEnsemble ensemble) {
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

    /** Drops every connection through the proxies and refuses new ones until {@link #heal()}. */
    public void cut() {
        proxies.forEach(ChaosProxy::cut);
    }

    /** Lets connections through again and removes any delay. */
    public void heal() {
        proxies.forEach(ChaosProxy::heal);
        proxies.forEach(p -> p.delay(Duration.ZERO));
    }

    /**
     * Holds each chunk of traffic for {@code latency}, both ways.
     *
     * @param latency how long to hold each chunk, zero for none
     */
    public void delay(Duration latency) {
        proxies.forEach(p -> p.delay(latency));
    }

    /** Holds all traffic both ways, connections open: the client looks frozen to the servers. */
    public void pause() {
        proxies.forEach(ChaosProxy::pause);
    }

    /** Lets traffic held by {@link #pause()} flow again. */
    public void resume() {
        proxies.forEach(ChaosProxy::resume);
    }

    @Override
    public void close() {
        proxies.forEach(ChaosProxy::close);
    }
}
