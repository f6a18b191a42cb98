package dev.baton.framework;

import java.util.List;
import org.apache.zookeeper.data.Stat;

/**
 * A node's children (names, not paths, in no particular order) and the parent's stat.
 */
public record NodeChildren(List<String> children, Stat stat) {
}
