package dev.baton.chaos;

import dev.baton.framework.BatonClient;
import dev.baton.framework.contention.Grant;
import dev.baton.recipes.lock.FencingToken;
import dev.baton.recipes.lock.InterProcessMutex;
import dev.baton.recipes.lock.LockLease;
import dev.baton.recipes.lock.SharedTicket;
import dev.baton.test.history.BoundedExclusion;
import dev.baton.test.history.Event;
import dev.baton.test.history.History;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.IntFunction;

/**
 * The mutex in the {@code SharedTicket} mode under faults: {@link #THREADS} threads on each client
 * share one mutex object (so one node per process, the lock handed between them in memory), and
 * every client of the run takes part. Each thread acquires (2 s timeout), writes to a store fenced
 * by the full {@link FencingToken} pair, holds for up to {@code holdMillis}, releases. Judged by
 * {@link SharedTicketJudge}: {@code BoundedExclusion} between processes, exclusion between local
 * threads, the loss rule, and the order of the pairs.
 */
final class SharedTicketChaos {
    static final String PATH = "/chaos/shared-mutex";
    /** Threads per client. */
    static final int THREADS = 3;

    private SharedTicketChaos() {
    }

    /** One hold as the workload sees it: the grant and its full token. */
    record Ticket(Grant grant, FencingToken token) {
    }

    /** Acquires a hold for one of a client's threads: null on timeout. */
    @FunctionalInterface
    interface TicketAcquirer {
        Ticket acquire(Duration timeout) throws InterruptedException;
    }

    /** The real thing: one shared-ticket mutex object for all threads of a client. */
    static TicketAcquirer mutex(BatonClient client, String path, SharedTicket limits) {
        InterProcessMutex mutex = new InterProcessMutex(client, path, limits);
        return timeout -> {
            LockLease lease = mutex.acquireLease(timeout);
            return lease == null ? null : new Ticket(lease, lease.holdToken());
        };
    }

    /** A resource fenced by the pair: it refuses a write whose pair is below the largest it accepted. */
    static final class PairStore {
        private FencingToken highest;
        private long accepted;
        private long refused;

        synchronized boolean write(FencingToken token) {
            boolean ok = highest == null || token.compareTo(highest) >= 0;
            if (ok) {
                highest = token;
                accepted++;
            } else {
                refused++;
            }
            return ok;
        }

        synchronized String note() {
            return "pair-fenced store: " + accepted + " writes accepted, " + refused + " stale writes refused";
        }
    }

    /** A running workload: {@link #judge} it once the run's faults are healed. */
    record Started(History history, Map<Long, FencingToken> tokens, PairStore store, BoundedExclusion.Rules rules) {
        SharedTicketJudge.Judgement judge(ChaosRun run) {
            return SharedTicketJudge.check(history.events(), tokens::get, run.truth(), rules);
        }

        long acquisitions() {
            return history.count(Event.Op.ACQUIRED);
        }
    }

    /** Actor of a worker: {@code client-<c>.<thread>}, as {@link SharedTicketJudge} expects. */
    static String actor(int worker) {
        return "client-" + worker / THREADS + "." + worker % THREADS;
    }

    /**
     * Starts {@link #THREADS} workers per client of the run (named {@code name-<i>}; worker
     * {@code i} runs on client {@code i / THREADS}), all of a client's on the one acquirer
     * {@code perClient} gives for it.
     */
    static Started start(ChaosRun run, String name, String path, IntFunction<TicketAcquirer> perClient,
                         BoundedExclusion.Rules rules, int holdMillis) {
        History history = new History();
        Map<Long, FencingToken> tokens = new ConcurrentHashMap<>();
        PairStore store = new PairStore();
        int workers = run.clients.size() * THREADS;
        Holds holds = new Holds(history, path, workers, SharedTicketChaos::actor);
        List<TicketAcquirer> acquirers = new ArrayList<>();
        for (int c = 0; c < run.clients.size(); c++) {
            acquirers.add(perClient.apply(c));
        }
        run.workers.start(name, workers, w -> {
            int c = w / THREADS;
            Ticket ticket = acquirers.get(c).acquire(Duration.ofSeconds(2));
            if (ticket == null) {
                return false;
            }
            Event granted = holds.acquired(w, ticket.grant(), run.client(c), false);
            tokens.put(granted.index(), ticket.token());
            store.write(ticket.token());
            run.workers.pace(Duration.ofMillis(ThreadLocalRandom.current().nextInt(holdMillis + 1)));
            holds.release(w, ticket.grant());
            return true;
        });
        return new Started(history, tokens, store, rules);
    }

    /** The shared-ticket workload with the default limits on {@link #PATH}. */
    static Started start(ChaosRun run) {
        return start(run, "shared-mutex", PATH, c -> mutex(run.client(c), PATH, SharedTicket.defaults()),
            LockChaosTest.standard(1), 5);
    }
}
