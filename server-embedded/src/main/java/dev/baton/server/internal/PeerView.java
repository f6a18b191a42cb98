package dev.baton.server.internal;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One server's view of its ensemble: the {@code server.N} lines of its configuration.
 *
 * <p>Without peer proxies every server lists every member's own quorum and election ports on the
 * loopback address. With them, a server lists, for each peer, the ports of the proxies on the
 * route from itself to that peer, so each server has a view of its own, and the ensemble can cut
 * any pair. Its own line then names the wildcard address {@code 0.0.0.0} with its real ports: it
 * binds them on every interface, and, because ZooKeeper leaves a wildcard out of the address a
 * server announces when it opens an election connection ({@code QuorumCnxManager}'s initial
 * message), a peer that answers such a connection by dialling back (the larger id keeps the
 * connection it opens itself) dials the address from its own view, the proxy, instead of an
 * announced address that would bypass it. Servers with different views still form one quorum:
 * with {@code reconfigEnabled=false} a learner ignores the configuration the leader sends with
 * NEWLEADER and keeps its own, and every static configuration has version 0.
 *
 * @param self the id of the server whose view this is
 * @param members every server as {@code self} reaches it (its own spec unchanged)
 * @param proxied whether peers are reached through proxies
 */
public record PeerView(int self, List<NodeSpec> members, boolean proxied) {
    private static final String LOOPBACK = "127.0.0.1";
    private static final String WILDCARD = "0.0.0.0";

    /** The {@code server.N} keys and values of this server's configuration, in id order. */
    public Map<String, String> serverLines() {
        Map<String, String> lines = new LinkedHashMap<>();
        for (NodeSpec member : members) {
            String host = proxied && member.id() == self ? WILDCARD : LOOPBACK;
            lines.put("server." + member.id(), host + ":" + member.quorumPort() + ":" + member.electionPort() + ":participant");
        }
        return lines;
    }

    /** Whether this is a replicated ensemble (more than one server). */
    public boolean replicated() {
        return members.size() > 1;
    }
}
