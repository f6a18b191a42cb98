package dev.baton.server;

/** Where an {@link EmbeddedEnsemble} runs its servers. */
public enum ServerMode {
    /** In this JVM (fast to start; the default). Servers can be stopped and restarted. */
    IN_PROCESS,
    /**
     * Each server in a child JVM running ZooKeeper's own server main. Slower to start (a JVM per
     * server), but a server can be killed with SIGKILL or frozen with SIGSTOP.
     */
    CHILD_PROCESSES
}
