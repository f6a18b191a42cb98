package dev.baton.framework;

import org.apache.zookeeper.data.Stat;

/**
 * A node's data and its stat, read together.
 *
 * @param data the node's data (empty, never null, for a node created without data)
 * @param stat versions, zxids, owner and sizes at the time of the read
 */
public record NodeData(byte[] data, Stat stat) {
}
