package dev.baton.recipes.transaction;

import dev.baton.framework.NoNodeException;
import dev.baton.framework.Timeouts;
import dev.baton.framework.TransactionFailedException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.zookeeper.KeeperException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The I/O and handler calls a participant's {@link Site}s ask for. Writes run on the client's
 * futures; the handler runs on the participant's handler executor, never under a lock. Each
 * action ends by looking at the transaction again, so the site's next step is derived afresh
 * from the nodes; an action that failed for want of a connection looks again a second later.
 */
final class SiteActions {
    private static final Logger LOG = LoggerFactory.getLogger(SiteActions.class);

    /** The wait before a handler call the handler executor refused is handed over again; it doubles up to the next. */
    private static final Duration HANDLER_RETRY_FIRST = Duration.ofMillis(10);
    private static final Duration HANDLER_RETRY_AT_MOST = Duration.ofSeconds(1);
    private static final Duration HANDLER_REFUSAL_WARN_EVERY = Duration.ofSeconds(30);

    private final TransactionParticipant p;
    /** When a refusal of the handler executor was last warned of (0: never). */
    private final AtomicLong lastRefusalWarning = new AtomicLong();

    SiteActions(TransactionParticipant participant) {
        this.p = participant;
    }

    /** The first time this incarnation sees a transaction naming it: arm its timers, and finish what an earlier one left. */
    void firstSight(Site site, TransactionStatus seen) {
        if (!seen.decided()) {
            long left = site.firstSeenNanos + Timeouts.nanos(site.tx.deadline()) - System.nanoTime();
            after(left, () -> atDeadline(site));
        }
        if (seen.decided() && seen.acknowledged().contains(p.id)) {
            // an earlier incarnation was told and acknowledged: if everyone else was done too, whoever
            // acknowledged last did not clean up (it died, or lost its connection); the view keeps no
            // other site's acknowledgement, so the check reads the servers
            Writes.cleanUpIfDone(p.client, site.path, site.tx).exceptionally(e -> null);
        }
    }

    void take(Site site, Site.Step step, TransactionStatus seen) {
        if (seen.decided() && site.armRetentionOnce()) {
            after(Timeouts.nanos(p.retention), () -> retentionOver(site));
        }
        // Java 17 has no pattern switch: the sealed steps, one by one
        if (step instanceof Site.Step.Prepare) {
            prepare(site);
        } else if (step instanceof Site.Step.WriteVote vote) {
            writeVote(site, vote);
        } else if (step instanceof Site.Step.Tell tell) {
            tell(site, tell.decision());
        } else if (step instanceof Site.Step.WriteAck ack) {
            writeAck(site, ack.outcome());
        }
    }

    /**
     * Prepares, unless an earlier incarnation's vote is on the servers (the view may not show it
     * yet) — or the transaction is not there at all. A missing vote only means "no vote" while
     * the transaction node exists: a view can show a transaction already cleaned up (acknowledged
     * by an earlier incarnation that was told, say), whose vote node is gone with it. One read of
     * the transaction's children answers both at one point in time: the node is there (or the
     * read fails with no node), and its vote is among the children or not.
     */
    private void prepare(Site site) {
        String myVote = Layout.VOTE_PREFIX + p.id;
        p.client.getChildren().forPathAsync(site.path).handle((children, e) -> {
            if (e == null) {
                return children.contains(myVote);
            }
            if (Reads.unwrap(e) instanceof NoNodeException) {
                return null; // not there (gone, or not yet on this server)
            }
            throw e instanceof CompletionException c ? c : new CompletionException(e);
        }).whenComplete((voted, e) -> {
            if (e != null || voted == null) {
                // cannot tell whether a vote is there, or the transaction is not (or not yet, on a
                // server behind the view): do not prepare blind; look again soon, when the view
                // will show it gone (nothing to tell) or the check will find it
                synchronized (p) {
                    site.checkFailed();
                }
                again(site);
            } else if (voted) {
                synchronized (p) {
                    site.foundEarlierVote();
                }
                p.lookAt(site.tx.id());
            } else {
                runHandler(site, "prepare", () -> {
                    Vote vote;
                    String why = null;
                    long began = System.nanoTime();
                    try {
                        vote = java.util.Objects.requireNonNull(p.handler.prepare(site.tx), "prepare returned null");
                    } catch (Throwable ex) { // whatever the handler's own code throws is its abort vote
                        vote = Vote.ABORT;
                        why = "prepare threw " + ex;
                    }
                    p.client.observer().transactionPrepared(p.layout.folder, vote == Vote.COMMIT, System.nanoTime() - began);
                    prepared(site, vote, why);
                });
            }
        });
    }

    private void prepared(Site site, Vote vote, String why) {
        boolean current;
        synchronized (p) {
            site.prepared(vote, why);
            current = p.isCurrent(site);
        }
        if (current) {
            p.lookAt(site.tx.id());
        } else if (!p.isClosed()) {
            // the transaction vanished while it was being prepared: without this vote it cannot have committed
            runHandler(site, "abort", () -> p.handler.abort(site.tx));
        }
    }

    private void writeVote(Site site, Site.Step.WriteVote vote) {
        Writes.vote(p.client, site.path, p.id, vote.vote(), vote.reason()).whenComplete((v, e) -> {
            synchronized (p) {
                site.voteWritten(e == null, e != null && transactionGone(e));
            }
            if (e == null && vote.vote() == Vote.COMMIT) {
                decide(site, false); // this vote may have completed an all-commit set: record it
            } else if (e != null && !Reads.settled(e)) {
                again(site);
            } else {
                p.lookAt(site.tx.id());
            }
        });
    }

    private void tell(Site site, Decision decision) {
        runHandler(site, decision.isCommit() ? "commit" : "abort", () -> {
            boolean ok = true;
            try {
                if (decision.isCommit()) {
                    p.handler.commit(site.tx);
                } else {
                    p.handler.abort(site.tx);
                }
            } catch (Throwable e) { // the handler's own failure must not stop the participant
                ok = false;
                LOG.warn("participant {}: {} of transaction {} threw; not acknowledged, so the next incarnation is told again",
                    p.id, decision.outcome(), site.tx.id(), e);
            }
            p.client.observer().transactionTold(p.layout.folder, decision.isCommit(), ok);
            synchronized (p) {
                site.toldHandler(ok);
            }
            p.lookAt(site.tx.id());
        });
    }

    private void writeAck(Site site, Outcome outcome) {
        Writes.ack(p.client, site.path, p.id, outcome).whenComplete((v, e) -> {
            synchronized (p) {
                site.ackWritten(e == null);
            }
            if (e == null) {
                Writes.cleanUpIfDone(p.client, site.path, site.tx).exceptionally(x -> null);
            } else if (!Reads.settled(e)) {
                again(site);
            }
        });
    }

    /**
     * Reads the votes afresh and records what they allow (with {@code deadlinePassed}, an abort
     * if any is missing); a failed step is tried again, afresh, a second later. Whatever is
     * recorded reaches the handler only as read from the decision node: this read, or the view.
     */
    private void decide(Site site, boolean deadlinePassed) {
        // at the deadline, first bring this client's server up to the leader: a follower that lags
        // would show the votes and the decision as they were, which is how the view fell behind
        CompletableFuture<Void> caughtUp = deadlinePassed
            ? p.client.sync().forPathAsync(p.layout.transactions)
            : CompletableFuture.completedFuture(null); // after this site's own write: the read sees it
        // after this site's commit vote most voters find a vote still missing: one read of the
        // children's names tells them so, where reading every vote's data cost N + 2
        caughtUp.thenCompose(synced -> deadlinePassed
            ? Reads.status(p.client, site.path)
            : Reads.statusIfVotedOrDecided(p.client, site.path, site.tx)).thenCompose(status -> {
            if (status.isEmpty() || status.get().decided()) {
                return CompletableFuture.completedFuture(status);
            }
            TransactionStatus read = status.get();
            return Tally.of(site.tx, read.votes(), deadlinePassed, p.id)
                .map(tally -> Writes.record(p.client, site.path, tally)
                    // recorded: what changed is the decision, so read back only that node (the votes
                    // and the names are as just read; re-reading them all cost N + 3 requests)
                    .thenCompose(v -> Reads.decision(p.client, site.path).thenApply(d -> d.map(read::withDecision)))
                    // someone else's decision came first, or the transaction is gone: read it all afresh
                    .exceptionallyCompose(e -> Reads.settled(e) ? Reads.status(p.client, site.path) : CompletableFuture.failedFuture(e)))
                .orElse(CompletableFuture.completedFuture(status));
        }).whenComplete((status, e) -> {
            if (e != null && !Reads.closed(e) && p.isCurrent(site)) {
                after(PendingTransaction.AGAIN.toNanos(), () -> decide(site, deadlinePassed));
            } else if (status != null && status.isPresent() && status.get().decided()) {
                p.lookAt(site, status.get()); // the decision as read from its node, whatever the view shows yet
            } else {
                p.lookAt(site.tx.id());
            }
        });
    }

    private void atDeadline(Site site) {
        if (p.isCurrent(site)) {
            decide(site, true);
        }
    }

    private void retentionOver(Site site) {
        if (!p.isCurrent(site)) {
            return;
        }
        Writes.settledIsDone(Writes.cleanUpIfDecided(p.client, site.path)).whenComplete((v, e) -> {
            if (e != null && !Reads.closed(e)) {
                after(PendingTransaction.AGAIN.toNanos(), () -> retentionOver(site));
            }
        });
    }

    /** The transaction's nodes are gone: tell what can still be told. */
    void vanished(Site site) {
        if (site.preparedButNeverVoted()) {
            runHandler(site, "abort", () -> p.handler.abort(site.tx));
        } else if (site.votedButNeverTold()) {
            LOG.error("participant {}: transaction {} vanished before its decision could be read; this participant voted on it,"
                + " so its outcome is unknown here (was the participant away longer than the retention period?)", p.id, site.tx.id());
            runHandler(site, "outcomeUnknown", () -> p.handler.outcomeUnknown(site.tx));
        }
    }

    private void again(Site site) {
        after(PendingTransaction.AGAIN.toNanos(), () -> p.lookAt(site.tx.id()));
    }

    private void runHandler(Site site, String what, HandlerCall call) {
        runHandler(site, what, call, HANDLER_RETRY_FIRST.toNanos());
    }

    /**
     * Hands a handler call to the handler executor. One it refuses while the participant and its client are open (a
     * full pool of the caller's) is handed to it again after {@code retryNanos}, doubling to at most a second: dropped,
     * a prepare would leave the transaction without this participant's vote, and a commit or abort would never be
     * acknowledged. Warned of at most once every 30 seconds per participant.
     */
    private void runHandler(Site site, String what, HandlerCall call, long retryNanos) {
        if (p.isClosed()) {
            return;
        }
        try {
            p.handlerExecutor.execute(() -> {
                try {
                    call.run();
                } catch (Throwable e) { // the handler's own failure must not stop the participant
                    LOG.warn("participant {}: {} of transaction {} threw", p.id, what, site.tx.id(), e);
                }
            });
        } catch (RejectedExecutionException e) {
            if (p.client.isClosed() || p.handlerExecutor instanceof ExecutorService s && s.isShutdown()) {
                LOG.warn("participant {}: the handler executor refused {} of transaction {} (shut down, or the client closed)",
                    p.id, what, site.tx.id());
                return;
            }
            long now = System.nanoTime();
            long last = lastRefusalWarning.get();
            if ((last == 0 || now - last >= HANDLER_REFUSAL_WARN_EVERY.toNanos()) && lastRefusalWarning.compareAndSet(last, now)) {
                LOG.warn("participant {}: the handler executor refused {} of transaction {} ({}); it is handed over again"
                    + " until the executor takes it, at most {} apart", p.id, what, site.tx.id(), e.toString(), HANDLER_RETRY_AT_MOST);
            }
            long next = Math.min(retryNanos * 2, HANDLER_RETRY_AT_MOST.toNanos());
            after(retryNanos, () -> runHandler(site, what, call, next));
        }
    }

    private void after(long nanos, Runnable step) {
        if (p.client.isClosed() || p.isClosed()) {
            return;
        }
        CompletableFuture.delayedExecutor(Math.max(0, nanos), TimeUnit.NANOSECONDS, p.client.asyncExecutor()).execute(step);
    }

    private static boolean transactionGone(Throwable failure) {
        Throwable t = Reads.unwrap(failure);
        return t instanceof NoNodeException
            || t instanceof TransactionFailedException f && f.code() == KeeperException.Code.NONODE;
    }

    @FunctionalInterface
    private interface HandlerCall {
        void run() throws Exception;
    }
}
