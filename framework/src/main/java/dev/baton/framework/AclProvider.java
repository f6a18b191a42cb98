package dev.baton.framework;

import java.util.List;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;

/**
 * The ACL a node gets when the create call does not name one (including parents created on the
 * way). The default gives everyone every permission, like ZooKeeper's {@code OPEN_ACL_UNSAFE}.
 */
@FunctionalInterface
public interface AclProvider {
    /** Open to everyone. */
    AclProvider OPEN = path -> ZooDefs.Ids.OPEN_ACL_UNSAFE;
    /** Full access to the creator's authenticated identity, nothing to anyone else. */
    AclProvider CREATOR_ALL = path -> ZooDefs.Ids.CREATOR_ALL_ACL;

    /**
     * @param path the server path the create call names (namespace included). For a sequential
     *     or protected create that is the path before ZooKeeper's sequence number and Baton's
     *     protection prefix are added (a lock contender's is {@code <folder>/lock-}, not
     *     {@code <folder>/_c_<uuid>-lock-0000000007}): the ACL is chosen before the name exists.
     *     A parent created on the way is asked with its own path
     * @return the ACL for the node at {@code path}
     */
    List<ACL> aclForPath(String path);
}
