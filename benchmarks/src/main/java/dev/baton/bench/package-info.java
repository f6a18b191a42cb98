/**
 * Benchmarks: Baton against raw ZooKeeper (the limit) and Apache Curator (the peer).
 */
package dev.baton.bench;
