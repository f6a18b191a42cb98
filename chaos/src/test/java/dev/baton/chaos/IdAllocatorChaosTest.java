package dev.baton.chaos;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.framework.BadVersionException;
import dev.baton.framework.BatonClient;
import dev.baton.framework.NoNodeException;
import dev.baton.framework.NodeData;
import dev.baton.framework.NodeExistsException;
import dev.baton.recipes.group.IdAllocator;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.EnsembleTest;
import dev.baton.test.Nemesis.Fault;
import dev.baton.test.history.IdHistory;
import dev.baton.test.history.Verdict;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The id allocator under faults: 8 clients, 3 threads each, blocks and strictly monotonic calls on
 * one allocator node while servers die, quorum is lost, clients are cut, frozen and expired. No
 * id may be handed out twice. A canary — an allocator that believes a write it could not prove —
 * runs under the same faults and must be caught, or the checker proves nothing.
 */
@EnsembleTest(nodes = 3)
class IdAllocatorChaosTest {
    private static final int CLIENTS = 8;
    private static final int THREADS_PER_CLIENT = 3;
    /** Clients from this one on use strictly monotonic allocators; those before it, blocks. */
    private static final int FIRST_STRICT = 6;
    private static final Fault[] FAULTS = {Fault.RESTART_SERVER, Fault.LOSE_QUORUM, Fault.CUT_CLIENT, Fault.DELAY_CLIENT,
        Fault.PAUSE_CLIENT, Fault.EXPIRE_SESSION};

    EmbeddedEnsemble ensemble;

    /** The run's length: five sixths of the chaos time (25 s of the default 30), to keep the class near 40 s. */
    private static Duration faults() {
        return ChaosRun.duration().multipliedBy(5).dividedBy(6);
    }

    @Test
    void noIdIsHandedOutTwiceUnderFaultsWhileACanaryThatTrustsUnprovedWritesIsCaught() throws Exception {
        IdHistory history = new IdHistory();
        IdHistory canaryHistory = new IdHistory();
        try (ChaosRun run = new ChaosRun("ids", ensemble, CLIENTS, Duration.ofSeconds(3), Fault.KILL_LEADER, FAULTS)) {
            IdAllocator[] allocators = new IdAllocator[CLIENTS];
            TrustingAllocator[] canaries = new TrustingAllocator[CLIENTS];
            for (int c = 0; c < CLIENTS; c++) {
                IdAllocator.Builder builder = IdAllocator.builder(run.client(c), "/chaos/ids");
                // small blocks: many reservation writes for the faults to land on
                allocators[c] = (c >= FIRST_STRICT ? builder.strictlyMonotonic() : builder.blockSize(20)).build();
                canaries[c] = new TrustingAllocator(run.client(c), "/chaos/canary-ids", 20);
            }
            IdHistory.Actor[] actors = new IdHistory.Actor[CLIENTS * THREADS_PER_CLIENT];
            for (int w = 0; w < actors.length; w++) {
                actors[w] = history.actor("client-" + w / THREADS_PER_CLIENT + "/thread-" + w % THREADS_PER_CLIENT);
            }
            IdHistory.Actor[] canaryActors = new IdHistory.Actor[CLIENTS];
            for (int c = 0; c < CLIENTS; c++) {
                canaryActors[c] = canaryHistory.actor("canary-" + c);
            }
            Workers workers = new Workers();
            workers.start("ids", actors.length, w -> {
                IdAllocator allocator = allocators[w / THREADS_PER_CLIENT];
                if (allocator.isStrictlyMonotonic()) {
                    long start = System.nanoTime();
                    actors[w].handedOutStrictly(start, allocator.next(1 + w % 2));
                } else {
                    actors[w].handedOut(allocator.next());
                    workers.pace(Duration.ofMillis(1));
                }
                return true;
            });
            // the canary shares the clients and the faults, on a node of its own
            Workers canaryWorkers = new Workers();
            canaryWorkers.start("canary", CLIENTS, c -> {
                canaryActors[c].handedOut(canaries[c].next());
                canaryWorkers.pace(Duration.ofMillis(2));
                return true;
            });
            run.runFaults(faults());
            workers.stop();
            canaryWorkers.stop();

            Verdict canary = canaryHistory.uniqueness();
            System.out.println("[ids] canary: " + canaryHistory.size() + " ids, " + canary.violations().size()
                + " handed out twice (must be caught), e.g. " + canary.violations().stream().limit(2).toList());
            assertThat(canaryHistory.size()).as("the canary made progress").isPositive();
            assertThat(canary.isOk()).as("the checker catches an allocator that uses blocks it did not reserve (seed %d)", run.seed)
                .isFalse();
            run.verdict(history.size(), Map.of(
                "unique ids", history.uniqueness().violations(),
                "ids increase per thread", history.actorsIncrease().violations(),
                "strict ids follow real time", history.strictRealTimeOrder().violations()));
        }
    }

    /**
     * The bug the real allocator avoids, on purpose: it reserves with a versioned write, but when
     * the write fails with a bad version it believes its write landed (as a retry after a lost
     * reply would), and uses a block someone else reserved. One per worker thread.
     */
    private static final class TrustingAllocator {
        private final BatonClient client;
        private final String path;
        private final int blockSize;
        private long next;
        private long end;

        TrustingAllocator(BatonClient client, String path, int blockSize) {
            this.client = client;
            this.path = path;
            this.blockSize = blockSize;
        }

        long next() throws InterruptedException {
            if (next == end) {
                reserve();
            }
            return next++;
        }

        private void reserve() throws InterruptedException {
            NodeData node;
            try {
                node = client.getData().forPathWithStat(path);
            } catch (NoNodeException e) {
                try {
                    client.create().creatingParentsIfNeeded().forPath(path, "1".getBytes(US_ASCII));
                } catch (NodeExistsException raced) {
                    // another canary made it
                }
                node = client.getData().forPathWithStat(path);
            }
            long start = Long.parseLong(new String(node.data(), US_ASCII));
            try {
                client.setData().withVersion(node.stat().getVersion()).forPath(path, Long.toString(start + blockSize).getBytes(US_ASCII));
            } catch (BadVersionException e) {
                // THE BUG: "it must have been my own write" -- but it was someone else's
            }
            next = start;
            end = start + blockSize;
        }
    }
}
