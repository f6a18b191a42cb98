package dev.baton.test;

import dev.baton.framework.BatonClient;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.Nemesis.Fault;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.IntConsumer;
import java.util.function.ToIntFunction;

/**
 * The {@link Nemesis}'s faults on the clients: on their connections ({@link ClientLink}), their
 * sessions ({@link BatonClient}) and their processes ({@link ClientProcess}). Each is logged,
 * applied, held (or until the nemesis stops) and healed; {@link #healAll()} undoes whatever is
 * still in effect. Which client a fault hits is drawn from the nemesis's seeded random.
 */
final class ClientFaults {
    /** How long EXPIRE_SESSION waits for a connected client under {@link Nemesis.Builder#expireOnlyConnected()}. */
    private static final Duration CONNECTED_TARGET_WAIT = Duration.ofSeconds(10);

    private final EmbeddedEnsemble ensemble;
    private final Random random;
    private final FaultPacing pacing;
    private final FaultLog log;
    private final List<ClientLink> links;
    private final List<BatonClient> clients;
    private final List<ClientProcess> processes;
    private final ToIntFunction<Random> pickProcess;
    private final Duration clientPauseLength;
    private final IntConsumer onExpiring;
    private final IntConsumer onExpired;
    private final boolean expireOnlyConnected;

    ClientFaults(Nemesis.Builder b, Random random, FaultPacing pacing, FaultLog log) {
        this.ensemble = b.ensemble;
        this.random = random;
        this.pacing = pacing;
        this.log = log;
        this.links = List.copyOf(b.links);
        this.clients = List.copyOf(b.clients);
        this.processes = List.copyOf(b.processes);
        this.pickProcess = b.pickProcess;
        this.clientPauseLength = b.clientPauseLength;
        this.onExpiring = b.onExpiring;
        this.onExpired = b.onExpired;
        this.expireOnlyConnected = b.expireOnlyConnected;
    }

    /** {@return whether there are client connections to cut, slow or freeze} */
    boolean hasLinks() {
        return !links.isEmpty();
    }

    /** {@return whether there are client sessions to expire} */
    boolean hasSessions() {
        return !clients.isEmpty();
    }

    /** {@return whether there are client processes to freeze or kill} */
    boolean hasProcesses() {
        return !processes.isEmpty();
    }

    void cut(Duration length) throws InterruptedException {
        int c = random.nextInt(links.size());
        log.say(Fault.CUT_CLIENT + " client " + c + " for " + length);
        links.get(c).cut();
        pacing.hold(length, () -> links.get(c).heal());
    }

    void delay(Duration length) throws InterruptedException {
        int c = random.nextInt(links.size());
        Duration latency = Duration.ofMillis(20 + random.nextInt(200));
        log.say(Fault.DELAY_CLIENT + " client " + c + " by " + latency + " for " + length);
        links.get(c).delay(latency);
        pacing.hold(length, () -> links.get(c).delay(Duration.ZERO));
    }

    void pauseLink() throws InterruptedException {
        int c = random.nextInt(links.size());
        log.say(Fault.PAUSE_CLIENT + " client " + c + " frozen for " + clientPauseLength);
        links.get(c).pause();
        pacing.hold(clientPauseLength, () -> links.get(c).resume());
    }

    /** Ends one client's session; with no connected client to end under expireOnlyConnected, takes back its count. */
    void expireSession() throws InterruptedException {
        int c = expiryTarget();
        if (c < 0) {
            log.uncount(Fault.EXPIRE_SESSION);
            log.say(Fault.EXPIRE_SESSION + " skipped: no client was connected to hear it within " + CONNECTED_TARGET_WAIT);
            return;
        }
        log.say(Fault.EXPIRE_SESSION + " client " + c);
        // the servers may delete the session's ephemeral nodes at any moment from here on,
        // and other clients may act on that before the kill returns
        onExpiring.accept(c);
        SessionKiller.expire(clients.get(c), ensemble.connectString(), Duration.ofSeconds(30));
        onExpired.accept(c);
    }

    void pauseProcess() throws InterruptedException {
        ClientProcess process = process();
        log.say(Fault.PAUSE_PROCESS + " " + process.name() + " frozen for " + clientPauseLength);
        process.pause();
        pacing.hold(clientPauseLength, process::resume);
    }

    void killProcess(Duration length) throws InterruptedException {
        ClientProcess process = process();
        log.say(Fault.KILL_PROCESS + " " + process.name() + ", a fresh one after " + length);
        process.kill();
        pacing.hold(length, () -> restart(process));
    }

    /** Lets every connection's traffic through again, heals every cut and wakes every frozen process. */
    void healAll() {
        links.forEach(ClientLink::resume);
        links.forEach(ClientLink::heal);
        processes.forEach(ClientProcess::resume);
    }

    /**
     * The client whose session EXPIRE_SESSION ends: any client, or under
     * {@link Nemesis.Builder#expireOnlyConnected()} one whose handle is connected, waiting up to
     * {@link #CONNECTED_TARGET_WAIT} for one (faults do not overlap, but a client can still be
     * reconnecting after the previous fault was healed). -1 if none was connected in time.
     */
    private int expiryTarget() throws InterruptedException {
        if (!expireOnlyConnected) {
            return random.nextInt(clients.size());
        }
        long deadline = System.nanoTime() + CONNECTED_TARGET_WAIT.toNanos();
        while (!pacing.stopping()) {
            List<Integer> connected = new ArrayList<>();
            for (int i = 0; i < clients.size(); i++) {
                if (clients.get(i).zookeeper().getState().isConnected()) {
                    connected.add(i);
                }
            }
            if (!connected.isEmpty()) {
                return connected.get(random.nextInt(connected.size()));
            }
            if (System.nanoTime() - deadline >= 0) {
                break;
            }
            pacing.quiet(Duration.ofMillis(50));
        }
        return -1;
    }

    /** The client process a process fault hits. */
    private ClientProcess process() {
        int p = pickProcess == null ? random.nextInt(processes.size()) : pickProcess.applyAsInt(random);
        if (p < 0 || p >= processes.size()) {
            throw new IllegalStateException("the process picker chose " + p + "; there are " + processes.size() + " processes");
        }
        return processes.get(p);
    }

    private static void restart(ClientProcess process) {
        try {
            process.restart();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while restarting " + process.name(), e);
        }
    }
}
