/**
 * Who is in a cluster, names for its services and resources, and ids unique across it.
 *
 * <p>{@link dev.baton.recipes.group.PersistentNode} keeps a node in existence through session
 * loss and deletion, and {@link dev.baton.recipes.group.PersistentTtlNode} keeps one for a bounded
 * time after its owner stops; {@link dev.baton.recipes.group.GroupMember} is membership with a live
 * view of the members (Curator's layouts, interoperable). {@link dev.baton.recipes.group.NamingService}
 * hands out cluster-unique names under namespaces; {@link dev.baton.recipes.group.IdAllocator}
 * hands out unique, increasing ids from memory, reserved in blocks. Guide: {@code docs/group.md}.
 */
package dev.baton.recipes.group;
