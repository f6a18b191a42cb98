package dev.baton.test.history;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A recorded history of a queue test, and the checks that decide from it whether the queue kept
 * its promises. Thread-safe: producers and consumers record from any thread; checks run at the end.
 *
 * <p>Record: {@link #put} once a put returned (the item is certainly queued), {@link #putUncertain}
 * when a put failed in a way that may or may not have queued the item, {@link #started} and
 * {@link #completed} around a consumer's work with the session it ran under,
 * {@link #sessionEnded} when the test ends a session on purpose, {@link #consumerDied} when it
 * kills a consumer process (stops it without letting it finish), and {@link #deadLettered} for
 * items the queue recorded as dead letters.
 *
 * <pre>{@code
 * QueueHistory history = new QueueHistory();
 * queue.put(item); history.put("producer-1", item);
 * // consumer: history.started("c1", item, client.sessionId()); ...; history.completed("c1", item, session);
 * history.checkExactlyOnce().assertOk();
 * }</pre>
 */
public final class QueueHistory {
    /** What happened. */
    public enum Kind {
        /** A put returned: the item is in the queue. */
        PUT,
        /** A put failed in a way that leaves open whether the item is in the queue. */
        PUT_UNCERTAIN,
        /** A consumer started working on an item, under a session. */
        STARTED,
        /** A consumer finished an item, under a session. */
        COMPLETED,
        /** The test ended a session (its claims are lost). */
        SESSION_ENDED,
        /** A consumer process died (what it had taken and not completed may be lost). */
        CONSUMER_DIED,
        /** An item became a dead letter. */
        DEAD_LETTERED,
        /** The servers acknowledged an item: its node was deleted (found by {@code checkAgainstServers}). */
        ACKED
    }

    /** One event; {@code order} is its position in the history. */
    public record Event(long order, Kind kind, String actor, String item, long session) {
    }

    /** The outcome of a check: the problems found, none if it held. */
    public record Verdict(String check, List<String> problems) {
        /** {@return whether the check found no problem} */
        public boolean ok() {
            return problems.isEmpty();
        }

        /** Throws an AssertionError listing (up to 20 of) the problems. */
        public void assertOk() {
            if (!ok()) {
                throw new AssertionError(check + " violated (" + problems.size() + " problems):\n  "
                    + String.join("\n  ", problems.subList(0, Math.min(20, problems.size()))));
            }
        }
    }

    private final AtomicLong clock = new AtomicLong();
    private final List<Event> events = new ArrayList<>();

    /**
     * Records that {@code producer}'s put of {@code item} returned.
     *
     * @param producer who put it
     * @param item the item (unique in the run)
     */
    public void put(String producer, String item) {
        add(Kind.PUT, producer, item, 0);
    }

    /**
     * Records that {@code producer}'s put of {@code item} failed without saying whether the item is in the
     * queue.
     *
     * @param producer who put it
     * @param item the item (unique in the run)
     */
    public void putUncertain(String producer, String item) {
        add(Kind.PUT_UNCERTAIN, producer, item, 0);
    }

    /**
     * Records that {@code consumer} started on {@code item} under {@code session}.
     *
     * @param consumer who consumes it
     * @param item the item
     * @param session the consumer's session id at that moment
     */
    public void started(String consumer, String item, long session) {
        add(Kind.STARTED, consumer, item, session);
    }

    /**
     * Records that {@code consumer} finished {@code item} under {@code session}.
     *
     * @param consumer who consumed it
     * @param item the item
     * @param session the consumer's session id at that moment
     */
    public void completed(String consumer, String item, long session) {
        add(Kind.COMPLETED, consumer, item, session);
    }

    /**
     * Records that the test ended {@code session}.
     *
     * @param session the session id
     */
    public void sessionEnded(long session) {
        add(Kind.SESSION_ENDED, null, null, session);
    }

    /**
     * Records that {@code consumer}'s process died.
     *
     * @param consumer who
     */
    public void consumerDied(String consumer) {
        add(Kind.CONSUMER_DIED, consumer, null, 0);
    }

    /**
     * Records that {@code item} became a dead letter.
     *
     * @param item the item
     */
    public void deadLettered(String item) {
        add(Kind.DEAD_LETTERED, null, item, 0);
    }

    private synchronized void add(Kind kind, String actor, String item, long session) {
        events.add(new Event(clock.incrementAndGet(), kind, actor, item, session));
    }

    /**
     * The servers' acknowledgement of {@code item}: its node was deleted, with the claim of
     * {@code session} (0: no claim went with it). Recorded by {@link #checkAgainstServers}.
     *
     * @param item the item
     * @param session the session whose claim went with the deletion, or 0
     */
    public void acked(String item, long session) {
        add(Kind.ACKED, null, item, session);
    }

    /** {@return every event so far, in order} */
    public synchronized List<Event> events() {
        return List.copyOf(events);
    }

    /** {@return how many distinct items were completed at least once} */
    public synchronized int completedItems() {
        Set<String> done = new HashSet<>();
        for (Event e : events) {
            if (e.kind() == Kind.COMPLETED) {
                done.add(e.item());
            }
        }
        return done.size();
    }

    /** {@return whether every certainly-put item has been completed at least once} */
    public synchronized boolean allPutItemsCompleted() {
        Set<String> done = new HashSet<>();
        for (Event e : events) {
            if (e.kind() == Kind.COMPLETED) {
                done.add(e.item());
            }
        }
        return events.stream().filter(e -> e.kind() == Kind.PUT).allMatch(e -> done.contains(e.item()));
    }

    /**
     * Guaranteed delivery: every certainly-put item was completed, and an item completed more than
     * once was completed at most once under a session that the test did not end after that
     * completion started (the others ran on while their claim was already lost, which ZooKeeper
     * cannot prevent; the queue must not have acknowledged them). Items put uncertainly may be
     * completed once or not at all. Nothing else may be completed.
     *
     * @return the verdict
     */
    public synchronized Verdict checkExactlyOnce() {
        List<String> problems = new ArrayList<>();
        Map<String, List<Event>> completions = completions();
        Set<String> maybe = items(Kind.PUT_UNCERTAIN);
        for (String item : items(Kind.PUT)) {
            if (!completions.containsKey(item)) {
                problems.add("lost: " + item + " was put but never completed");
            }
        }
        for (var entry : completions.entrySet()) {
            String item = entry.getKey();
            if (!items(Kind.PUT).contains(item) && !maybe.contains(item)) {
                problems.add("phantom: " + item + " was completed but never put");
            }
            long unexcused = entry.getValue().stream().filter(c -> !endedAfterStart(c)).count();
            if (entry.getValue().size() > 1 && unexcused > 1) {
                problems.add("duplicate: " + item + " completed " + entry.getValue().size() + " times, " + unexcused
                    + " of them under sessions that lived on: " + entry.getValue());
            }
        }
        return new Verdict("exactly-once delivery", problems);
    }

    /**
     * Plain (at-most-once) delivery: no item completed twice, nothing completed that was not put,
     * and every certainly-put item completed, dead-lettered, or started by a consumer that then
     * died without completing it (the loss the plain mode admits).
     *
     * @return the verdict
     */
    public synchronized Verdict checkAtMostOnce() {
        List<String> problems = new ArrayList<>();
        Map<String, List<Event>> completions = completions();
        Set<String> put = items(Kind.PUT);
        Set<String> maybe = items(Kind.PUT_UNCERTAIN);
        Set<String> dead = items(Kind.DEAD_LETTERED);
        Set<String> heldByTheDead = heldByDeadConsumers();
        for (var entry : completions.entrySet()) {
            if (entry.getValue().size() > 1) {
                problems.add("duplicate: " + entry.getKey() + " completed " + entry.getValue().size() + " times: " + entry.getValue());
            }
            if (!put.contains(entry.getKey()) && !maybe.contains(entry.getKey())) {
                problems.add("phantom: " + entry.getKey() + " was completed but never put");
            }
        }
        for (String item : put) {
            if (!completions.containsKey(item) && !dead.contains(item) && !heldByTheDead.contains(item)) {
                problems.add("lost: " + item + " was put, never completed, not a dead letter, and no dead consumer held it");
            }
        }
        return new Verdict("at-most-once delivery", problems);
    }

    /**
     * Per-producer FIFO: each producer's items were first completed in the order it put them
     * (meaningful when one consumer thread consumes).
     *
     * @return the verdict
     */
    public synchronized Verdict checkFifoPerProducer() {
        List<String> problems = new ArrayList<>();
        Map<String, Long> firstCompletion = new HashMap<>();
        for (Event e : events) {
            if (e.kind() == Kind.COMPLETED) {
                firstCompletion.putIfAbsent(e.item(), e.order());
            }
        }
        Map<String, List<String>> byProducer = new LinkedHashMap<>();
        for (Event e : events) {
            if (e.kind() == Kind.PUT) {
                byProducer.computeIfAbsent(e.actor(), k -> new ArrayList<>()).add(e.item());
            }
        }
        byProducer.forEach((producer, items) -> {
            long last = -1;
            String lastItem = null;
            for (String item : items) {
                Long at = firstCompletion.get(item);
                if (at == null) {
                    continue;
                }
                if (at < last) {
                    problems.add("out of order: " + producer + " put " + lastItem + " before " + item + " but " + item + " was completed first");
                }
                if (at > last) {
                    last = at;
                    lastItem = item;
                }
            }
        });
        return new Verdict("FIFO per producer", problems);
    }

    private boolean endedAfterStart(Event completion) {
        long started = -1;
        for (Event e : events) {
            if (e.kind() == Kind.STARTED && e.item().equals(completion.item()) && e.session() == completion.session()
                && e.order() < completion.order()) {
                started = e.order();
            }
        }
        for (Event e : events) {
            if (e.kind() == Kind.SESSION_ENDED && e.session() == completion.session() && e.order() > started) {
                return true;
            }
        }
        return false;
    }

    private Map<String, List<Event>> completions() {
        Map<String, List<Event>> out = new LinkedHashMap<>();
        for (Event e : events) {
            if (e.kind() == Kind.COMPLETED) {
                out.computeIfAbsent(e.item(), k -> new ArrayList<>()).add(e);
            }
        }
        return out;
    }

    private Set<String> items(Kind kind) {
        Set<String> out = new HashSet<>();
        for (Event e : events) {
            if (e.kind() == kind) {
                out.add(e.item());
            }
        }
        return out;
    }

    /** Items a consumer started and never completed, when that consumer later died. */
    private Set<String> heldByDeadConsumers() {
        Set<String> dead = new HashSet<>();
        for (Event e : events) {
            if (e.kind() == Kind.CONSUMER_DIED) {
                dead.add(e.actor());
            }
        }
        Map<String, Set<String>> open = new HashMap<>();
        for (Event e : events) {
            if (e.kind() == Kind.STARTED) {
                open.computeIfAbsent(e.actor(), k -> new HashSet<>()).add(e.item());
            } else if (e.kind() == Kind.COMPLETED) {
                open.getOrDefault(e.actor(), new HashSet<>()).remove(e.item());
            }
        }
        Set<String> held = new HashSet<>();
        dead.forEach(consumer -> held.addAll(open.getOrDefault(consumer, Set.of())));
        return held;
    }

    /**
     * Guaranteed delivery judged against the servers' record ({@link ServerTruth} observing the
     * queue and lock folders, settled from the servers' logs so that it knows every item node's
     * data, every claim's owner and every session's end).
     *
     * <ul>
     *   <li><b>Acknowledgements.</b> Each deletion of an item node is recorded as an
     *       {@link Kind#ACKED ACKED} event. It must delete, in the same transaction (same zxid),
     *       the item's claim — its lock node, {@code <lockPath>/<lockName>} — owned by a session
     *       under which a consumer completed the item. An item removed without its claim, or with
     *       a claim already dead (deleted earlier, when its session ended) is acknowledged on a
     *       dead claim: Curator's CURATOR-605 class, a violation.</li>
     *   <li><b>Duplicates.</b> An item started more than once is excused only if the servers had
     *       ended the session of the earlier delivery at a zxid no later than the creation of the
     *       later delivery's claim. Otherwise two live consumers had it: a violation.</li>
     *   <li><b>Nothing lost, nothing invented.</b> Every certainly-put item was completed, and
     *       nothing was completed that was not put.</li>
     * </ul>
     *
     * <p>What cannot be judged is counted in the verdict's name, by reason: an item deletion
     * whose zxid the truth knows only as a bound, a second delivery whose claim the truth does
     * not hold (no claim of that item by the session the consumer ran under).
     *
     * @param truth the servers' record, watching {@code queuePath} and {@code lockPath}; settled,
     *     or the owners and data it lacks leave items unjudged
     * @param queuePath the queue's folder; its item nodes may lie in subfolders (shards)
     * @param lockPath the folder of the claims: the claim of item node {@code <queuePath>/a/b} is
     *     {@code <lockPath>/a-b}
     * @param itemPrefix how item node names start ({@code queue-}); other nodes under the queue
     *     path (shards, receipts) are not items
     * @param itemIds finds the items named in an item node's data
     * @return the problems found (empty if delivery was guaranteed), with the unjudged counts by
     *     reason in the verdict's name
     */
    public Verdict checkAgainstServers(ServerTruth truth, String queuePath, String lockPath, String itemPrefix,
                                       java.util.function.Function<byte[], List<String>> itemIds) {
        List<String> problems = new ArrayList<>();
        Map<String, Integer> unjudged = new java.util.TreeMap<>();
        Map<String, List<ServerTruth.Node>> claims = new HashMap<>();
        Map<String, String> lockOfItem = new HashMap<>();
        List<ServerTruth.Node> itemNodes = new ArrayList<>();
        int unread = 0;
        for (ServerTruth.Node n : truth.nodes()) {
            if (n.path().startsWith(lockPath + "/")) {
                claims.computeIfAbsent(n.name(), k -> new ArrayList<>()).add(n);
            } else if (!n.path().startsWith(queuePath + "/") || !n.name().startsWith(itemPrefix)) {
                continue;
            } else if (n.data() == null) {
                unread++;
            } else if (!itemIds.apply(n.data()).isEmpty()) {
                itemNodes.add(n);
                String relative = n.path().substring(queuePath.length() + 1);
                for (String item : itemIds.apply(n.data())) {
                    lockOfItem.put(item, relative.replace('/', '-'));
                }
            }
        }
        if (unread > 0) {
            unjudged.put("nodes whose data is unknown", unread);
        }
        Map<Long, Set<String>> completedBy = new HashMap<>();
        for (Event e : events()) {
            if (e.kind() == Kind.COMPLETED) {
                completedBy.computeIfAbsent(e.session(), k -> new HashSet<>()).add(e.item());
            }
        }
        itemNodes.sort(java.util.Comparator.comparingLong(ServerTruth.Node::dzxid));
        for (ServerTruth.Node node : itemNodes) {
            if (!node.deleted()) {
                continue;
            }
            List<String> items = itemIds.apply(node.data());
            if (!node.deletionExact()) {
                unjudged.merge("item deletions known only by a listing", 1, Integer::sum);
                continue;
            }
            String lockName = node.path().substring(queuePath.length() + 1).replace('/', '-');
            ServerTruth.Node claim = claims.getOrDefault(lockName, List.of()).stream()
                .filter(c -> c.dzxid() == node.dzxid()).findFirst().orElse(null);
            items.forEach(item -> acked(item, claim == null ? 0 : claim.owner()));
            if (claim == null) {
                problems.add("acknowledged on a dead claim: " + items + " (" + node.path() + ") was removed at zxid 0x"
                    + Long.toHexString(node.dzxid()) + " without its claim " + lockPath + "/" + lockName + " in the same"
                    + " transaction; its claims: " + describe(claims.getOrDefault(lockName, List.of())));
            } else if (claim.owner() == 0) {
                unjudged.merge("acknowledgements whose claim's owner is unknown", 1, Integer::sum);
            } else if (items.stream().noneMatch(item -> completedBy.getOrDefault(claim.owner(), Set.of()).contains(item))) {
                problems.add("acknowledged by a session that did not complete it: " + items + " removed with the claim of"
                    + " session 0x" + Long.toHexString(claim.owner()));
            }
        }
        Map<String, List<Event>> deliveries = new LinkedHashMap<>();
        for (Event e : events()) {
            if (e.kind() == Kind.STARTED) {
                deliveries.computeIfAbsent(e.item(), k -> new ArrayList<>()).add(e);
            }
        }
        for (var entry : deliveries.entrySet()) {
            List<Event> ds = entry.getValue();
            for (int k = 1; k < ds.size(); k++) {
                Event first = ds.get(k - 1);
                Event again = ds.get(k);
                String lockName = lockOfItem.get(entry.getKey());
                ServerTruth.Node againClaim = lockName == null ? null : claims.getOrDefault(lockName, List.of()).stream()
                    .filter(c -> c.owner() == again.session()).min(java.util.Comparator.comparingLong(ServerTruth.Node::czxid))
                    .orElse(null);
                java.util.Optional<ServerTruth.SessionEnd> ended = truth.sessionEnd(first.session());
                if (first.session() == again.session()) {
                    problems.add("duplicate: " + entry.getKey() + " delivered twice under one session 0x"
                        + Long.toHexString(first.session()) + ": " + first + ", " + again);
                } else if (ended.isEmpty() && truth.settled()) {
                    problems.add("duplicate: " + entry.getKey() + " delivered to " + again.actor() + " while the session"
                        + " of the first delivery, " + first.actor() + " 0x" + Long.toHexString(first.session())
                        + ", never ended on the servers");
                } else if (ended.isEmpty()) {
                    unjudged.merge("second deliveries whose first session's end is unknown (logs not read)", 1,
                        Integer::sum);
                } else if (againClaim == null) {
                    unjudged.merge("second deliveries whose claim is unknown", 1, Integer::sum);
                } else if (ended.get().zxid() > againClaim.czxid()) {
                    problems.add("duplicate: " + entry.getKey() + " delivered to " + again.actor() + " (claim at zxid 0x"
                        + Long.toHexString(againClaim.czxid()) + ") before the session of the first delivery, "
                        + first.actor() + " 0x" + Long.toHexString(first.session()) + ", ended (zxid 0x"
                        + Long.toHexString(ended.get().zxid()) + ")");
                }
            }
        }
        Set<String> done = items(Kind.COMPLETED);
        Set<String> put = items(Kind.PUT);
        Set<String> maybe = items(Kind.PUT_UNCERTAIN);
        for (String item : put) {
            if (!done.contains(item)) {
                problems.add("lost: " + item + " was put but never completed");
            }
        }
        for (String item : done) {
            if (!put.contains(item) && !maybe.contains(item)) {
                problems.add("phantom: " + item + " was completed but never put");
            }
        }
        int total = unjudged.values().stream().mapToInt(Integer::intValue).sum();
        return new Verdict("guaranteed delivery against the servers (" + total + " unjudged"
            + (unjudged.isEmpty() ? "" : ": " + unjudged) + ")", problems);
    }

    private static String describe(List<ServerTruth.Node> claims) {
        List<String> out = new ArrayList<>();
        for (ServerTruth.Node c : claims) {
            out.add("session 0x" + Long.toHexString(c.owner()) + " zxid 0x" + Long.toHexString(c.czxid()) + "-0x"
                + Long.toHexString(c.dzxid()));
        }
        return out.toString();
    }
}
