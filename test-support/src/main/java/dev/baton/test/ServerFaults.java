package dev.baton.test;

import dev.baton.server.EmbeddedEnsemble;
import dev.baton.server.PartitionStyle;
import dev.baton.server.ServerMode;
import dev.baton.server.ServerRole;
import dev.baton.test.Nemesis.Fault;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/**
 * The {@link Nemesis}'s faults on the servers: each is logged, applied, held for its length (or
 * until the nemesis stops) and healed; {@link #healAll()} brings every server back whatever was
 * in effect. Which server a fault hits is drawn from the nemesis's seeded random.
 */
final class ServerFaults {
    /** How long a heal of a partition waits for the servers to agree again before the schedule goes on. */
    private static final Duration REJOIN_WAIT = Duration.ofSeconds(15);

    private final EmbeddedEnsemble ensemble;
    private final Random random;
    private final FaultPacing pacing;
    private final FaultLog log;
    /** How long a partition between servers lasts; null: drawn like any fault. */
    private final Duration partitionLength;
    private final List<PartitionStyle> partitionStyles;

    ServerFaults(Nemesis.Builder b, Random random, FaultPacing pacing, FaultLog log) {
        this.ensemble = b.ensemble;
        this.random = random;
        this.pacing = pacing;
        this.log = log;
        this.partitionLength = b.partitionLength;
        this.partitionStyles = List.copyOf(b.partitionStyles);
    }

    /** {@return whether the ensemble can lose a server and keep a quorum} */
    boolean quorum() {
        return ensemble.size() >= 3;
    }

    /** {@return whether the servers are child processes, which can be frozen} */
    boolean childProcesses() {
        return ensemble.mode() == ServerMode.CHILD_PROCESSES;
    }

    /** {@return whether the servers talk to each other through proxies, which can cut them apart} */
    boolean peerProxies() {
        return ensemble.peerProxies();
    }

    void killLeader(Duration length) throws InterruptedException {
        int leader = ensemble.leaderId();
        log.say(Fault.KILL_LEADER + " server " + leader + " for " + length);
        ensemble.kill(leader);
        pacing.hold(length, () -> ensemble.restart(leader));
    }

    void restartOne(Duration length) throws InterruptedException {
        int id = 1 + random.nextInt(ensemble.size());
        log.say(Fault.RESTART_SERVER + " server " + id + " down for " + length);
        ensemble.stop(id);
        pacing.hold(length, () -> ensemble.restart(id));
    }

    void rollingRestart() {
        log.say(Fault.ROLLING_RESTART.toString());
        for (int id = 1; id <= ensemble.size() && !pacing.stopping(); id++) {
            ensemble.restart(id);
        }
    }

    void loseQuorum(Duration length) throws InterruptedException {
        List<Integer> down = new ArrayList<>();
        for (int id = 1; down.size() <= ensemble.size() / 2; id++) {
            down.add(id);
        }
        log.say(Fault.LOSE_QUORUM + " servers " + down + " down for " + length);
        down.forEach(ensemble::stop);
        pacing.hold(length, () -> down.forEach(ensemble::restart));
    }

    void pauseOne(Duration length) throws InterruptedException {
        int id = 1 + random.nextInt(ensemble.size());
        log.say(Fault.PAUSE_SERVER + " server " + id + " frozen for " + length);
        ensemble.pause(id);
        pacing.hold(length, () -> ensemble.resume(id));
    }

    void isolateLeader(Duration length) throws InterruptedException {
        partition(Fault.ISOLATE_LEADER, Set.of(ensemble.leaderId()), length);
    }

    void isolateFollower(Duration length) throws InterruptedException {
        int leader = ensemble.leaderId();
        List<Integer> followers = new ArrayList<>();
        for (int id = 1; id <= ensemble.size(); id++) {
            if (id != leader) {
                followers.add(id);
            }
        }
        partition(Fault.ISOLATE_FOLLOWER, Set.of(followers.get(random.nextInt(followers.size()))), length);
    }

    void split(Duration length) throws InterruptedException {
        List<Integer> ids = new ArrayList<>();
        for (int id = 1; id <= ensemble.size(); id++) {
            ids.add(id);
        }
        Collections.shuffle(ids, random);
        partition(Fault.SPLIT_SERVERS, Set.copyOf(ids.subList(0, ensemble.size() / 2)), length);
    }

    /** Heals every partition, resumes every paused server and restarts every stopped one. */
    void healAll() {
        if (ensemble.peerProxies()) {
            ensemble.healPartitions();
        }
        for (int id = 1; id <= ensemble.size(); id++) {
            ServerRole role = ensemble.role(id);
            if (role == ServerRole.PAUSED) {
                ensemble.resume(id);
            } else if (role == ServerRole.STOPPED) {
                ensemble.restart(id);
            }
        }
    }

    /**
     * Cuts {@code side} off from the other servers (for the partition length if one was set, else
     * {@code drawn}), in one of the partition styles, then heals and waits, boundedly, for every
     * server to serve again under one leader, so that the next fault starts from a whole ensemble.
     */
    private void partition(Fault fault, Set<Integer> side, Duration drawn) throws InterruptedException {
        Duration length = partitionLength != null ? partitionLength : drawn;
        PartitionStyle style = partitionStyles.get(random.nextInt(partitionStyles.size()));
        log.say(fault + " servers " + side + " cut off (" + style + ") for " + length);
        ensemble.partition(side, style);
        pacing.hold(length, () -> {
            ensemble.healPartitions();
            awaitInSync();
        });
    }

    /**
     * After a heal: the cut-off side rejoins (an election retry, at most 2 s apart): every server
     * serving, one leader. A side that has not rejoined in {@link #REJOIN_WAIT} ends the schedule loudly.
     */
    private void awaitInSync() {
        try {
            Awaitility.await().atMost(REJOIN_WAIT).pollInterval(Duration.ofMillis(50)).ignoreExceptions()
                .until(ensemble::whole);
        } catch (ConditionTimeoutException e) {
            throw new IllegalStateException("the servers had not rejoined under one leader " + REJOIN_WAIT.toSeconds()
                + " s after the partition healed: " + ensemble, e);
        }
    }
}
