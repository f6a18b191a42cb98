package dev.baton.chaos;

import dev.baton.recipes.lock.FencingToken;
import dev.baton.test.history.BoundedExclusion;
import dev.baton.test.history.Event;
import dev.baton.test.history.ServerTruth;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Judges a history of the mutex in the {@code SharedTicket} mode, where several threads of one
 * client hold in turn on one node of the process, against the servers' record. Four checks:
 *
 * <ol>
 *   <li><b>Exclusion between processes</b> — {@link BoundedExclusion}, the default mutex's checker,
 *       on the process's <i>tenures</i>: a tenure is one node of one client, believed from the
 *       first local hold on it to the end of the last (a local hand-off keeps the node; a thread
 *       that took it over after the servers deleted it extends its process's belief). Each tenure
 *       is an actor of its own, with the node's zxid as its token, so the checker's rules apply as
 *       they do to a process with one thread: no double grant, a late belief only within the
 *       lateness of the servers' deletion, tokens increasing from tenure to tenure.</li>
 *   <li><b>Exclusion between local threads</b> — two holds on one node never overlap in the
 *       history (a release is recorded before it hands on): no lateness excuses it.</li>
 *   <li><b>The loss rule</b> — a local holder whose process lost the node must be told: every
 *       hold whose node the servers deleted while it believed (it was granted before, or handed
 *       on after the deletion) must stop believing within the lateness of the deletion, whether
 *       or not anyone else was granted meanwhile.</li>
 *   <li><b>Fencing order</b> — the holds' {@link FencingToken} pairs (the node's zxid, the hold's
 *       number on the node), compared as pairs, strictly increase in the order the holds were
 *       granted, across local and remote holds. A hold handed on after the servers had deleted its
 *       node (the client had not heard yet: a local hand-off proves nothing at the servers) is
 *       excused from the order and counted: its pair is below the later process's, so a
 *       pair-fenced store refuses its writes, and the loss rule judges how long it believed.</li>
 * </ol>
 *
 * <p>As in {@link BoundedExclusion}, the servers' deletion time is known between a floor and a
 * ceiling: a lateness that the two put on both sides of the bound is counted as unjudged, not excused.
 */
final class SharedTicketJudge {
    private SharedTicketJudge() {
    }

    /** The judgement: each check's violations, and one line of counts. */
    record Judgement(Map<String, List<String>> checks, String summary) {
    }

    /** One local hold: its grant, its end (null: believed to the end of the history), its pair, its node's life. */
    private static final class Local {
        final Event start;
        final FencingToken token;
        Event end;
        ServerTruth.Node node;

        Local(Event start, FencingToken token) {
            this.start = start;
            this.token = token;
        }

        String client() {
            String actor = start.actor();
            int dot = actor.indexOf('.');
            return dot < 0 ? actor : actor.substring(0, dot);
        }

        String nodePath() {
            return start.nodes().isEmpty() ? "?" + start.value() : start.nodes().get(0);
        }

        long endIndex() {
            return end == null ? Long.MAX_VALUE : end.index();
        }
    }

    /**
     * Judges {@code history} (actors named {@code <client>.<thread>}, every grant with its node's
     * path) under {@code rules}.
     *
     * @param tokens each grant's full token, by the grant event's {@link Event#index()}
     */
    static Judgement check(List<Event> history, Function<Long, FencingToken> tokens, ServerTruth truth,
                           BoundedExclusion.Rules rules) {
        List<Local> holds = new ArrayList<>();
        Map<String, Local> open = new LinkedHashMap<>();
        List<String> local = new ArrayList<>();
        for (Event e : history) {
            String who = e.actor() + "\u0000" + e.key();
            switch (e.op()) {
                case ACQUIRED -> {
                    Local previous = open.get(who);
                    if (previous != null) {
                        local.add(e + ": granted again while its hold since " + previous.start + " had not ended");
                    }
                    FencingToken token = tokens.apply(e.index());
                    Local h = new Local(e, token == null ? new FencingToken(e.value(), 0) : token);
                    holds.add(h);
                    open.put(who, h);
                }
                case RELEASED, LOST -> {
                    Local h = open.remove(who);
                    if (h != null) {
                        h.end = e;
                    }
                }
                default -> { }
            }
        }
        long lastNanos = history.isEmpty() ? 0 : history.get(history.size() - 1).nanos();
        for (Local h : holds) {
            h.node = life(h, truth);
        }

        // 2. local exclusion: holds on one node, in grant order, each after the previous one's end
        Map<String, List<Local>> byNode = new LinkedHashMap<>();
        for (Local h : holds) {
            byNode.computeIfAbsent(h.nodePath(), k -> new ArrayList<>()).add(h);
        }
        for (List<Local> onNode : byNode.values()) {
            Local before = onNode.get(0);
            for (int i = 1; i < onNode.size(); i++) {
                Local after = onNode.get(i);
                if (after.start.index() < before.endIndex()) {
                    local.add(after.start + " " + after.token + ": local double grant: handed the node " + after.nodePath()
                        + " while " + before.start.actor() + " " + before.token + " still held it (since " + before.start + ")");
                }
                if (after.endIndex() > before.endIndex()) {
                    before = after; // the hold that ends last so far
                }
            }
        }

        // 1. exclusion between processes, on tenures
        List<Event> tenures = tenures(byNode, history);
        BoundedExclusion.Result processes = BoundedExclusion.check(tenures, truth, rules);

        // 3. the loss rule
        List<String> loss = new ArrayList<>();
        int told = 0;
        int lossUnjudged = 0;
        double latest = 0;
        long bound = rules.lateness().toNanos();
        for (Local h : holds) {
            if (h.node == null || !h.node.deleted()) {
                continue;
            }
            long endNanos = h.end == null ? lastNanos : h.end.nanos();
            long ceiling = h.node.deletedNanos();
            long floor = Math.min(ceiling, h.node.deletedNanosFloor());
            if (endNanos - floor <= 0) {
                continue; // ended before the servers deleted the node: its own release, or a later holder's
            }
            long lateMost = endNanos - floor;
            long lateLeast = Math.max(0, endNanos - ceiling);
            if (lateMost <= bound) {
                told++;
                latest = Math.max(latest, lateMost / 1e6);
            } else if (lateLeast <= bound) {
                lossUnjudged++;
            } else {
                loss.add(h.start + " " + h.token + ": believed it held for at least " + String.format("%.0f ms", lateLeast / 1e6)
                    + " after the servers deleted its process's node " + h.nodePath() + " (zxid 0x" + Long.toHexString(h.node.dzxid())
                    + ")" + (h.end == null ? ", to the end of the history" : ", until " + h.end)
                    + ": a local holder whose process lost the node must be told within " + rules.lateness().toMillis() + " ms");
            }
        }

        // 4. fencing order, as pairs
        List<String> order = new ArrayList<>();
        int lateHandOffs = 0;
        Local highest = null;
        for (Local h : holds) {
            if (highest == null || h.token.compareTo(highest.token) > 0) {
                highest = h;
                continue;
            }
            if (h.node != null && h.node.deleted() && Math.min(h.node.deletedNanos(), h.node.deletedNanosFloor()) - h.start.nanos() <= 0) {
                lateHandOffs++; // granted on a node the servers may already have deleted: fenced, and judged by the loss rule
                continue;
            }
            order.add(h.start + ": token " + h.token + " is not greater than " + highest.token + " of the earlier " + highest.start);
        }

        Map<String, List<String>> checks = new LinkedHashMap<>();
        checks.put("shared-mutex: " + rules.policy() + " exclusion between processes", processes.violations());
        checks.put("shared-mutex: exclusion between local threads", local);
        checks.put("shared-mutex: a local holder whose process lost the node is told", loss);
        checks.put("shared-mutex: fencing pairs strictly increase", order);
        String summary = holds.size() + " holds on " + tenures.stream().filter(e -> e.op() == Event.Op.ACQUIRED).count()
            + " nodes; processes: " + processes.summary() + "; loss: " + told + " holds ended within the bound of their node's deletion ("
            + String.format("%.0f ms", latest) + " latest), " + lossUnjudged + " unjudged; " + lateHandOffs
            + " hand-offs after the servers deleted the node, fenced";
        return new Judgement(checks, summary);
    }

    /** The hold's node life in the truth: as {@link BoundedExclusion} finds it, the latest life the grant's view could see. */
    private static ServerTruth.Node life(Local h, ServerTruth truth) {
        if (h.start.nodes().isEmpty()) {
            return truth.byCzxid(h.start.value()).orElse(null);
        }
        List<ServerTruth.Node> lives = truth.lives(h.start.nodes().get(0));
        long view = h.start.viewZxid();
        Optional<ServerTruth.Node> life = lives.stream().filter(n -> view == 0 || n.czxid() <= view || n.czxid() == -1)
            .max(Comparator.comparingLong(ServerTruth.Node::czxid));
        return life.or(() -> lives.stream().findFirst()).orElse(null);
    }

    /**
     * The process-level history: per node, a grant at its first local hold (actor
     * {@code <client>@<node>}, the node's zxid as token) and an end at the last local hold's end —
     * lost if that hold was lost — unless a hold on it is believed to the end of the history.
     */
    private static List<Event> tenures(Map<String, List<Local>> byNode, List<Event> history) {
        List<Event> out = new ArrayList<>();
        for (List<Local> onNode : byNode.values()) {
            Local first = onNode.get(0);
            Local last = null;
            boolean open = false;
            for (Local h : onNode) {
                if (h.end == null) {
                    open = true;
                } else if (last == null || h.end.index() > last.end.index()) {
                    last = h;
                }
            }
            String actor = first.client() + "@" + first.nodePath().substring(first.nodePath().lastIndexOf('/') + 1);
            Event s = first.start;
            out.add(new Event(s.index(), s.nanos(), actor, Event.Op.ACQUIRED, s.key(), s.value(), s.viewZxid(), s.nodes(), false));
            if (!open && last != null) {
                Event e = last.end;
                out.add(new Event(e.index(), e.nanos(), actor, e.op(), e.key(), 0, 0, List.of(), false));
            }
        }
        out.sort(Comparator.comparingLong(Event::index));
        return out;
    }
}
