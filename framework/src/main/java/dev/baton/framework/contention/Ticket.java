package dev.baton.framework.contention;

/**
 * A contender's place in line: the ephemeral sequential node it created.
 *
 * @param path the node's path (without the client's namespace)
 * @param sequence the node's sequence number
 * @param fencingToken the node's creation zxid: global to the ensemble and larger than that of any
 *     node created before it, so larger than every earlier holder's
 * @param sessionId the session that owns the node; the node, and whatever it grants, ends with it
 */
public record Ticket(String path, long sequence, long fencingToken, long sessionId) {
    /** {@return the node's name (last path segment)} */
    public String name() {
        return path.substring(path.lastIndexOf('/') + 1);
    }
}
