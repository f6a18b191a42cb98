package dev.baton.chaos;

import static java.nio.charset.StandardCharsets.US_ASCII;

import dev.baton.framework.BadVersionException;
import dev.baton.framework.BatonClient;
import dev.baton.framework.NoNodeException;
import dev.baton.framework.NodeData;
import dev.baton.framework.NodeExistsException;
import dev.baton.recipes.group.IdAllocator;
import dev.baton.server.EmbeddedEnsemble;
import dev.baton.test.Nemesis.Fault;
import dev.baton.test.history.IdHistory;
import dev.baton.test.history.Verdict;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The id allocator under faults: 8 clients, 3 threads each, blocks and strictly monotonic calls on
 * one allocator node while the nemesis kills and pauses servers (child processes), takes the
 * quorum away, and cuts, delays, freezes and expires clients. No id may be handed out twice,
 * each thread's ids increase, and strictly monotonic calls follow real time.
 *
 * <p>A canary — an allocator that believes a write it could not prove — runs beside them, on the
 * same clients under the same faults, on a node of its own, and must be caught by the same checker:
 * a checker that cannot catch it proves nothing. Running it here rather than in {@link CanaryTest}
 * costs no second ensemble and no second run.
 */
@Paired
class IdAllocatorChaosTest {
    private static final int CLIENTS = 8;
    private static final int THREADS_PER_CLIENT = 3;
    /** Clients from this one on use strictly monotonic allocators; those before it, blocks. */
    private static final int FIRST_STRICT = 6;
    /** Small blocks: many reservation writes for the faults to land on. */
    private static final int BLOCK = 20;

    private static EmbeddedEnsemble ensemble;

    /** The module's shared ensemble (see {@link ChaosRun#childProcessEnsemble()}): not closed here. */
    @BeforeAll
    static void start() {
        ensemble = ChaosRun.childProcessEnsemble();
    }

    @Test
    void noIdIsHandedOutTwiceUnderFaultsWhileACanaryThatTrustsUnprovedWritesIsCaught() throws Exception {
        IdHistory history = new IdHistory();
        IdHistory canaryHistory = new IdHistory();
        // RESTART_SERVER is left out: to an allocator it is KILL_LEADER again (a server gone and back with its
        // state), and its ~5 s would take the class past its 30 s budget
        try (ChaosRun run = ChaosRun.builder("ids", ensemble).clients(CLIENTS).faults(Fault.KILL_LEADER, Fault.LOSE_QUORUM,
            Fault.PAUSE_SERVER, Fault.CUT_CLIENT, Fault.DELAY_CLIENT, Fault.PAUSE_CLIENT, Fault.EXPIRE_SESSION).build()) {
            IdAllocator[] allocators = new IdAllocator[CLIENTS];
            TrustingAllocator[] canaries = new TrustingAllocator[CLIENTS];
            for (int c = 0; c < CLIENTS; c++) {
                IdAllocator.Builder builder = IdAllocator.builder(run.client(c), "/chaos/ids");
                allocators[c] = (c >= FIRST_STRICT ? builder.strictlyMonotonic() : builder.blockSize(BLOCK)).build();
                canaries[c] = new TrustingAllocator(run.client(c), "/chaos/canary-ids", BLOCK);
            }
            IdHistory.Actor[] actors = new IdHistory.Actor[CLIENTS * THREADS_PER_CLIENT];
            for (int w = 0; w < actors.length; w++) {
                actors[w] = history.actor("client-" + w / THREADS_PER_CLIENT + "/thread-" + w % THREADS_PER_CLIENT);
            }
            IdHistory.Actor[] canaryActors = new IdHistory.Actor[CLIENTS];
            for (int c = 0; c < CLIENTS; c++) {
                canaryActors[c] = canaryHistory.actor("canary-" + c);
            }
            Workers workers = run.workers;
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
            workers.start("canary", CLIENTS, c -> {
                canaryActors[c].handedOut(canaries[c].next());
                workers.pace(Duration.ofMillis(2));
                return true;
            });
            run.runFaults(); // the workers are stopped when it returns

            Verdict canary = canaryHistory.uniqueness();
            String canaryNote = "canary: " + canaryHistory.size() + " ids, " + canary.violations().size()
                + " handed out twice (must be caught), e.g. " + canary.violations().stream().limit(2).toList();
            Map<String, List<String>> checks = new LinkedHashMap<>();
            checks.put("unique ids", history.uniqueness().violations());
            checks.put("ids increase per thread", history.actorsIncrease().violations());
            checks.put("strict ids follow real time", history.strictRealTimeOrder().violations());
            checks.put("the checker catches the canary", canary.isOk()
                ? List.of("the canary handed out " + canaryHistory.size() + " ids and the checker found no id handed out twice: "
                    + "under these faults it could not have told a broken allocator from a correct one")
                : List.of());
            run.verdict(history.size(), checks, canaryNote);
        }
    }

    /**
     * The bug the real allocator avoids, on purpose: it reserves with a versioned write, but when
     * the write fails with a bad version it believes its write landed (as a retry after a lost
     * reply would), and uses a block someone else reserved. One per canary worker.
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
