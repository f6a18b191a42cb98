package dev.baton.test.history;

import dev.baton.framework.BatonClient;
import java.lang.reflect.Field;
import org.apache.zookeeper.ClientCnxn;
import org.apache.zookeeper.ZooKeeper;

/**
 * The last zxid a client has seen: the server's zxid in the header of the latest reply to one of
 * its requests. A recipe that grants on a listing (or on a read after a watch fired) has seen at
 * least the zxid of every change that listing reflects, so a grant's view zxid orders it against
 * the servers' history without clocks: a grant whose view is below the zxid at which an earlier
 * holder's node was deleted was made while that node still existed.
 *
 * <p>Read after the grant returned, the value may be a little higher than at the decision (replies
 * to the client's other requests in between); a checker using it is lenient by that much, never
 * strict. ZooKeeper keeps the value in its connection object without a public way to reach it
 * from the handle, so this reads the handle's {@code cnxn} field.
 */
public final class Zxids {
    private static final Field CNXN;

    static {
        try {
            CNXN = ZooKeeper.class.getDeclaredField("cnxn");
            CNXN.setAccessible(true);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private Zxids() {
    }

    /**
     * The last zxid a ZooKeeper handle has seen in a reply.
     *
     * @param zooKeeper the handle
     * @return the zxid in the header of its latest reply, or 0 if it has had none
     * @throws IllegalStateException if the handle's connection cannot be read
     */
    public static long lastSeen(ZooKeeper zooKeeper) {
        try {
            return ((ClientCnxn) CNXN.get(zooKeeper)).getLastZxid();
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("cannot read the zxid of " + zooKeeper, e);
        }
    }

    /**
     * The last zxid a client's current handle has seen: record it as an {@link Event#viewZxid()}
     * right after a grant returns.
     *
     * @param client the client
     * @return the zxid in the header of its current handle's latest reply, or 0 if it has no
     *     handle or the handle has had no reply
     * @throws IllegalStateException if the handle's connection cannot be read
     */
    public static long lastSeen(BatonClient client) {
        ZooKeeper handle = client.zookeeper();
        return handle == null ? 0 : lastSeen(handle);
    }
}
