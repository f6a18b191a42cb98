package dev.baton.recipes.queue;

/**
 * One item node as a consumer listed it.
 *
 * @param path the node's path
 * @param name the node's name
 * @param lockName the name of its lock node under the lock path: the item's name for an item
 *     directly under the queue path (as Curator names it), {@code <shard>-<name>} inside a shard
 * @param key its place in the queue
 */
record ItemRef(String path, String name, String lockName, ItemKey key) {
}
