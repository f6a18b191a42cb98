/**
 * Leader election on ZooKeeper: latch and selector, with terms and leadership policies.
 */
package dev.baton.recipes.election;
