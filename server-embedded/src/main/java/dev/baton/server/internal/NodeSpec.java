package dev.baton.server.internal;

import java.nio.file.Path;

/**
 * Where one server of an ensemble lives: its id (1-based), its loopback ports and its data folder.
 * A one-node ensemble has no quorum or election port (0).
 */
public record NodeSpec(int id, int clientPort, int quorumPort, int electionPort, Path dataDir) {
}
