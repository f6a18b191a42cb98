package dev.baton.recipes.election.examples;

import dev.baton.framework.BatonClient;
import dev.baton.recipes.election.ElectionEvent;
import dev.baton.recipes.election.ElectionObserver;
import dev.baton.recipes.election.LeaderLatch;
import dev.baton.recipes.election.LeaderLatchListener;
import dev.baton.recipes.election.LeaderSelector;
import dev.baton.recipes.election.LeadershipPolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.AtomicReference;

/** The examples of {@code docs/election.md}, compiled and run by {@link ElectionExampleTest}. */
public final class ElectionExample {
    static final String BILLING = "/services/billing/leader";

    private ElectionExample() {
    }

    /**
     * A resource that remembers the highest term it has accepted and refuses older ones — the
     * downstream half of fencing. (A database row with a "term" column and a conditional update
     * does the same.)
     */
    public static final class FencedLedger {
        private long highestTerm = LeaderLatch.NO_TOKEN;
        private final List<String> entries = new ArrayList<>();

        public synchronized boolean append(long term, String entry) {
            if (term < highestTerm) {
                return false; // a leader from an earlier term: refuse
            }
            highestTerm = term;
            entries.add(entry);
            return true;
        }

        public synchronized List<String> entries() {
            return List.copyOf(entries);
        }
    }

    // tag::latch[]
    /** One billing instance leads; it writes with its term so a stale leader is refused. */
    public static LeaderLatch startBilling(BatonClient client, String endpoint, FencedLedger ledger) {
        LeaderLatch latch = LeaderLatch.builder(client, BILLING, endpoint)
            .policy(LeadershipPolicy.LEASE)          // keep leading through blips, gone before expiry
            .build();
        latch.addListener(LeaderLatchListener.of(
            term -> ledger.append(term, endpoint + " leads"),   // start leader-only work with its term
            () -> { /* stop leader-only work */ }));
        latch.start();
        return latch;
    }
    // end::latch[]

    // tag::observer[]
    /** A router that always knows where the billing leader is (and what it proclaims). */
    public static ElectionObserver followBilling(BatonClient client, AtomicReference<String> leaderEndpoint) {
        ElectionObserver observer = new ElectionObserver(client, BILLING);
        observer.addListener(event -> {
            if (event instanceof ElectionEvent.LeaderChanged changed) {
                leaderEndpoint.set(changed.leader().id());
            } else {
                leaderEndpoint.set(null); // NoLeader: hold requests until someone leads
            }
        });
        observer.start();
        return observer;
    }
    // end::observer[]

    // tag::selector[]
    /** One compactor at a time drains the queue; losing leadership interrupts take(). */
    public static LeaderSelector startCompactor(BatonClient client, String id, BlockingQueue<String> work,
                                                FencedLedger ledger) {
        LeaderSelector selector = LeaderSelector.builder(client, "/jobs/compaction/leader", id, new CompactionTurn(work, ledger, id))
            .policy(LeadershipPolicy.CONNECTION)
            .build();
        selector.autoRequeue();                    // after a turn (or a lost one), queue again
        selector.start();
        return selector;
    }

    private record CompactionTurn(BlockingQueue<String> work, FencedLedger ledger, String id)
        implements dev.baton.recipes.election.LeaderSelectorListener {
        @Override
        public void takeLeadership(BatonClient client) {
            throw new UnsupportedOperationException("the variant with the term is called");
        }

        @Override
        public void takeLeadership(BatonClient client, long term) throws InterruptedException {
            while (true) {
                String segment = work.take();            // interrupted when leadership is lost
                if (!ledger.append(term, id + " compacted " + segment)) {
                    return;                              // a newer leader exists: give up the turn
                }
            }
        }
    }
    // end::selector[]
}
