package dev.baton.recipes.queue;

import dev.baton.framework.ChangeSignal;
import dev.baton.framework.ClientClosedException;
import dev.baton.framework.Deadline;
import dev.baton.framework.NodeData;
import dev.baton.framework.Timeouts;
import dev.baton.recipes.queue.Claims.Claim;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A queue's consumer thread: lists a batch, claims its items in order and hands them to the
 * executor, at most {@code concurrency} at a time.
 *
 * <p>Cost: one listing per batch, not per item. A FIFO batch is worked through to the end (items
 * put meanwhile come after it anyway). A priority or delay batch is listed again when a watch says
 * something changed and either a tenth of it is done or ten times the listing's own duration has
 * passed, so a more urgent item waits at most that long and listing stays a bounded share of the
 * work. That choice is made each time a consumer slot comes free, before anything is handed to it,
 * so an item put while every slot was busy is weighed against the rest of the listing instead of
 * coming after its next item. An empty queue leaves watches and sleeps until they fire.
 *
 * <p>An item is taken (plain mode) or locked (guaranteed mode) only when one of the
 * {@code concurrency} consumer slots is free, on the executor, so at most {@code concurrency}
 * items are out of ZooKeeper and not yet consumed; with one slot, items go one after another in
 * order. Plain mode reads the data of the next items ahead, and with a {@code takeBatch} above 1
 * a slot removes up to that many consecutive items in one transaction and consumes them in order
 * (then up to {@code takeBatch × concurrency} items are out of ZooKeeper and not yet consumed).
 *
 * <p>Sharing with other consumers (plain mode, take batch above 1): every consumer lists the same items in the same
 * order, so consumers that all worked from the head would race for the same slot, and the winner,
 * having removed a whole take batch in one write, would stay a slot ahead of the losers for the
 * rest of the listing. So once a take finds that another consumer removed some of its items, the
 * next slot of this listing starts at a random slot boundary among the items equally entitled to
 * go next (same priority; due, in a delay queue; any, in a FIFO or id queue), and the items it
 * skipped are listed again once this listing is worked through. A consumer that meets no other
 * keeps to the listing's order, so a lone consumer with one slot still consumes in queue order
 * (an item removed by id between its listing and its take looks the same as a lost race, though).
 */
final class ConsumerLoop<T> implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(ConsumerLoop.class);
    private static final Duration RECHECK = Duration.ofSeconds(10);
    private static final Duration ERROR_PAUSE = Duration.ofMillis(500);
    private static final int READ_AHEAD = 16;

    private final QueueStore store;
    private final Claims claims;
    private final DeadLetters deadLetters;
    private final Delivery<T> delivery;
    private final ChangeSignal signal;
    private final Executor executor;
    private final Semaphore permits;
    private final int concurrency;
    private final int takeBatch;
    private final BooleanSupplier running;
    /** Set by a take that found items already removed by another consumer; read (and cleared) when the next slot is chosen. */
    private final AtomicBoolean contended = new AtomicBoolean();

    public ConsumerLoop(QueueStore store, Claims claims, DeadLetters deadLetters, Delivery<T> delivery, ChangeSignal signal,
                        Executor executor, int concurrency, int takeBatch, BooleanSupplier running) {
        this.store = store;
        this.claims = claims;
        this.deadLetters = deadLetters;
        this.delivery = delivery;
        this.signal = signal;
        this.executor = executor;
        this.concurrency = concurrency;
        this.takeBatch = claims == null ? takeBatch : 1;
        this.permits = new Semaphore(concurrency);
        this.running = running;
    }

    @Override
    public void run() {
        boolean prepared = false;
        while (running.getAsBoolean()) {
            try {
                if (!prepared) {
                    prepare();
                    prepared = true;
                }
                cycle();
            } catch (InterruptedException e) {
                if (!running.getAsBoolean()) {
                    return;
                }
            } catch (ClientClosedException e) {
                LOG.warn("queue {}: its client was closed before the queue; consuming stops", store.path());
                return;
            } catch (RuntimeException e) {
                LOG.warn("queue {}: {}; trying again", store.path(), e.toString());
                try {
                    signal.awaitChange(signal.generation(), Deadline.after(ERROR_PAUSE));
                } catch (InterruptedException ie) {
                    return;
                }
            }
        }
    }

    /**
     * Makes the queue node, whose watch tells an idle consumer that items arrived, and the lock
     * path. Done here, on the consumer thread and retried like every step, so that the queue's
     * start() needs no connection.
     */
    private void prepare() throws InterruptedException {
        store.ensurePath();
        if (claims != null) {
            claims.ensureLockPath();
        }
    }

    /** Waits until every delivery handed to the executor has finished, up to {@code timeout}. */
    public boolean awaitIdle(Duration timeout) throws InterruptedException {
        if (permits.tryAcquire(concurrency, Timeouts.nanos(timeout), java.util.concurrent.TimeUnit.NANOSECONDS)) {
            permits.release(concurrency);
            return true;
        }
        return false;
    }

    private void cycle() throws InterruptedException {
        long seen = signal.generation();
        long listed = store.ticker().read();
        List<ItemRef> batch = store.list(signal);
        long listing = store.ticker().read() - listed;
        if (batch.isEmpty()) {
            signal.awaitChange(seen, Deadline.after(RECHECK));
            return;
        }
        int handled = 0;
        List<CompletableFuture<NodeData>> reads = new ArrayList<>(Collections.nCopies(batch.size(), null));
        for (int i = 0; i < batch.size(); ) {
            if (claims == null) {
                readAhead(batch, reads, i, slotEnd(batch, i) + READ_AHEAD);
            }
            // Wait for a free slot first and only then choose what to hand it: an item put while every
            // slot was busy must be able to come next, not after the next item of this listing.
            permits.acquire();
            if (!running.getAsBoolean() || mayJumpAhead(seen, listed, listing, handled, batch.size())) {
                permits.release();
                return; // closing, or something arrived that may come first: list again
            }
            long due = store.order() == ItemOrder.DELAY ? dueIn(batch.get(i)) : 0;
            if (due > 0) {
                permits.release();
                // the batch is sorted by due time: nothing after this is due either
                signal.awaitChange(seen, Deadline.after(Duration.ofMillis(Math.min(due, RECHECK.toMillis()))));
                return;
            }
            if (contended.getAndSet(false) && takeBatch > 1) {
                i = spreadFrom(batch, i);
                readAhead(batch, reads, i, slotEnd(batch, i) + READ_AHEAD); // the reads made so far were for where we were
            }
            int end = slotEnd(batch, i);
            List<ItemRef> refs = List.copyOf(batch.subList(i, end));
            List<CompletableFuture<NodeData>> slotReads = new ArrayList<>(reads.subList(i, end));
            for (int k = i; k < end; k++) {
                reads.set(k, null);
            }
            dispatch(() -> handle(refs, slotReads));
            handled += end - i;
            i = end;
        }
    }

    /**
     * Whether a priority or delay batch should be listed again before the next slot is filled: a
     * watch fired since the listing, and a tenth of the batch is done or ten times the listing's
     * own duration has passed (so listing stays a bounded share of the work).
     */
    private boolean mayJumpAhead(long seen, long listed, long listing, int handled, int batchSize) {
        return store.order().newItemsMayJumpAhead() && signal.generation() != seen
            && (handled >= batchSize / 10 || store.ticker().read() - listed >= 10 * listing);
    }

    /**
     * After a lost race: a random slot boundary (counted in take batches from {@code i}) among the
     * items from {@code i} on that are as entitled to go next as item {@code i}, so that consumers
     * that met spread over the listing instead of queueing behind the one that is ahead.
     */
    private int spreadFrom(List<ItemRef> batch, int i) {
        int equals = i + 1;
        while (equals < batch.size() && equallyEntitled(batch.get(i), batch.get(equals))) {
            equals++;
        }
        int slots = (equals - i + takeBatch - 1) / takeBatch;
        return slots <= 1 ? i : i + takeBatch * ThreadLocalRandom.current().nextInt(slots);
    }

    /** Whether {@code later} may be taken before {@code first} without breaking what the queue's order promises. */
    private boolean equallyEntitled(ItemRef first, ItemRef later) {
        return store.order() == ItemOrder.DELAY ? dueIn(later) <= 0 : later.key().primary() == first.key().primary();
    }

    /** Where the slot starting at {@code i} ends: after this item and, with a take batch, the next ones that are due. */
    private int slotEnd(List<ItemRef> batch, int i) {
        int end = i + 1;
        while (end < batch.size() && end - i < takeBatch && (store.order() != ItemOrder.DELAY || dueIn(batch.get(end)) <= 0)) {
            end++;
        }
        return end;
    }

    /** Plain mode reads ahead, so a take costs one write round trip, not a read and a write. */
    private void readAhead(List<ItemRef> batch, List<CompletableFuture<NodeData>> reads, int from, int to) {
        for (int k = from; k < Math.min(batch.size(), to); k++) {
            if (reads.get(k) == null) {
                reads.set(k, store.readAsync(batch.get(k)));
            }
        }
    }

    private static long dueIn(ItemRef ref) {
        return ref.key().primary() - System.currentTimeMillis();
    }

    /** On the executor: claim or take the slot's items (one in guaranteed mode), then consume them in order. */
    private void handle(List<ItemRef> refs, List<CompletableFuture<NodeData>> reads) {
        try {
            if (claims != null) {
                Claim claim = claims.tryClaim(refs.get(0));
                if (claim != null) {
                    deliverClaimed(claim);
                }
                return;
            }
            QueueStore.Read present = QueueStore.stillThere(refs, reads);
            if (present.refs().size() < refs.size()) {
                contended.set(true);
            }
            if (present.isEmpty()) {
                return;
            }
            List<Taken> taken;
            try {
                taken = store.takeAll(present.refs(), present.datas());
            } catch (QueueOutcomeUnknownException e) {
                // maybe ours, maybe another consumer's: record them rather than consume them twice or drop them
                List<DeadLetters.Entry> unknown = new ArrayList<>();
                for (int k = 0; k < present.refs().size(); k++) {
                    unknown.addAll(Delivery.entriesFor(present.refs().get(k).path(), present.datas().get(k).data(),
                        "take outcome unknown (reply lost, session ended): the item may also have been delivered by another consumer"));
                }
                deadLetters.write(unknown);
                store.observer().queueItemsDeadLettered(store.path(), unknown.size());
                return;
            }
            if (taken.size() < present.refs().size()) {
                contended.set(true);
            }
            deliverTaken(taken);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            LOG.warn("queue {}: could not take {}{}: {}", store.path(), refs.get(0).path(),
                refs.size() > 1 ? " and " + (refs.size() - 1) + " more" : "", e.toString());
        }
    }

    private void dispatch(Runnable delivery) {
        Runnable task = () -> {
            try {
                delivery.run();
            } finally {
                permits.release();
            }
        };
        try {
            executor.execute(task);
        } catch (RejectedExecutionException e) {
            task.run();
        }
    }

    /**
     * Consumes taken items in order. Once close() interrupts a delivery, the items after it are
     * not started: they become dead letters, as the interrupted one's unconsumed items do.
     */
    private void deliverTaken(List<Taken> taken) {
        for (int k = 0; k < taken.size(); k++) {
            Taken item = taken.get(k);
            Delivery.Result result = delivery.run(item.ref().path(), item.data(), () -> true);
            List<DeadLetters.Entry> dead = new ArrayList<>(result.dead());
            if (result.interrupted()) {
                for (Taken rest : taken.subList(k + 1, taken.size())) {
                    dead.addAll(Delivery.entriesFor(rest.ref().path(), rest.data(),
                        "not consumed: the queue was closed while the consumer ran"));
                }
            }
            if (!dead.isEmpty()) {
                withoutInterrupt(() -> deadLetters.write(dead), item.ref());
                store.observer().queueItemsDeadLettered(store.path(), dead.size());
            }
            if (result.interrupted()) {
                return;
            }
        }
    }

    private void deliverClaimed(Claim claim) {
        if (!claims.stillHeld(claim)) {
            claims.drop(claim);
            return;
        }
        Delivery.Result result = delivery.run(claim.ref().path(), claim.data().data(), () -> claims.stillHeld(claim));
        if (result.abandoned()) {
            claims.drop(claim);
            return;
        }
        withoutInterrupt(() -> {
            if (result.interrupted()) {
                claims.release(claim); // closed mid-item: another consumer gets it
            } else {
                claims.ack(claim, result.dead());
            }
        }, claim.ref());
    }

    private interface Step {
        void run() throws InterruptedException;
    }

    /** Runs a ZooKeeper step that must happen even if close() interrupted the consumer. */
    private void withoutInterrupt(Step step, ItemRef ref) {
        boolean interrupted = Thread.interrupted();
        try {
            step.run();
        } catch (InterruptedException | RuntimeException e) {
            LOG.error("queue {}: could not finish with {}: {}", store.path(), ref.path(), e.toString());
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
