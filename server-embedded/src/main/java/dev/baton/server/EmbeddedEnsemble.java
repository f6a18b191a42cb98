package dev.baton.server;

import dev.baton.server.internal.Layout;
import dev.baton.server.internal.NodeSpec;
import dev.baton.server.internal.PortReservation;
import dev.baton.server.internal.ProcessNode;
import dev.baton.server.internal.QuorumNode;
import dev.baton.server.internal.ServerJars;
import dev.baton.server.internal.ServerJvmSettings;
import dev.baton.server.internal.ServerNode;
import dev.baton.server.internal.ServerSecurity;
import dev.baton.server.internal.ServerSettings;
import dev.baton.server.internal.StandaloneNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

/**
 * A real ZooKeeper ensemble of 1, 3 or 5 servers on free loopback ports, in this JVM or, with
 * {@link ServerMode#CHILD_PROCESSES}, each in a child JVM of its own (of another ZooKeeper release too).
 *
 * <p>One node runs ZooKeeper's standalone server; more run ZooKeeper's own quorum peers, so leader
 * election, Zab broadcast and learner recovery are the real ones. Servers are numbered from 1.
 * Each keeps its data in its own folder, so {@link #stop(int)} followed by {@link #restart(int)}
 * brings a server back with its data, and it catches up on what it missed from the leader.
 *
 * <p>Ports are reserved when the ensemble is built (see {@code PortReservation}), so
 * {@link #connectString()} is known before {@link #start()}, and several JVMs can run ensembles
 * side by side without taking each other's ports. {@link #close()} stops every server, waits for
 * every server thread to end, frees the ports and deletes the data unless the caller chose the
 * data folder. From build to close the ensemble holds a lock on its data folder, so no second
 * ensemble runs on it; when a JVM dies without closing its ensemble (SIGKILL), its child-process
 * servers halt by themselves and the next ensemble built with a temporary folder deletes its one.
 *
 * <p>Partitions between servers. Built with {@link Builder#peerProxies(boolean) peerProxies(true)},
 * every server-to-server connection (Zab's quorum port and the election port, for each directed
 * pair) runs through a loopback proxy in this JVM, in either mode; {@link #isolate(int)} and
 * {@link #partition(Set)} cut routes, {@link #healPartitions()} restores them, and the servers
 * reconnect by themselves.
 *
 * <p>Guarantees and caveats: some ZooKeeper server settings are JVM-wide system properties (TTL
 * nodes enabled, four-letter words, the container-reaper interval, no admin web server); the
 * first in-process ensemble sets them unless the user already has. {@code forceSync} is per
 * ensemble. With peer proxies, each server binds its quorum and election ports on every interface
 * (see {@code PeerView} for why); client ports stay on the loopback address.
 *
 * <pre>{@code
 * try (EmbeddedEnsemble ensemble = EmbeddedEnsemble.builder().nodes(3).build()) {
 *     ensemble.start();
 *     String connect = ensemble.connectString();
 *     ensemble.stop(ensemble.leaderId());   // a new leader is elected among the other two
 * }
 * }</pre>
 */
public final class EmbeddedEnsemble implements AutoCloseable {
    private static final AtomicInteger ENSEMBLES = new AtomicInteger();

    private final String name;
    private final ServerMode mode;
    private final Layout layout;
    private final Servers servers;
    private final Partitions partitions;
    /** The certificates of a TLS ensemble, or null. */
    private final LocalCertificates certificates;
    private final ServerSecurity security;
    private volatile boolean closed;

    private EmbeddedEnsemble(Builder builder, Layout layout, List<Path> serverJars) {
        this.name = "baton-ensemble-" + ENSEMBLES.incrementAndGet();
        this.mode = builder.mode;
        this.layout = layout;
        ServerSettings settings = new ServerSettings(builder.tickTime, builder.minSessionTimeout,
            builder.maxSessionTimeout, builder.initLimit, builder.syncLimit, builder.forceSync,
            builder.maxClientConnections, builder.localSessions);
        this.certificates = builder.tls ? LocalCertificates.create(layout.root().resolve("tls")) : null;
        this.security = Security.of(builder.tls, builder.clientCertificates, builder.saslUsers, certificates, layout.root());
        Map<Integer, ServerNode> nodes = new TreeMap<>();
        for (NodeSpec spec : layout.specs()) {
            nodes.put(spec.id(), newNode(spec, settings, serverJars));
        }
        this.servers = new Servers(name, mode, nodes, builder.startTimeout);
        this.partitions = Partitions.start(layout, name, servers);
    }

    /** One server: a child JVM, or in this JVM a standalone server alone and a quorum peer among others. */
    private ServerNode newNode(NodeSpec spec, ServerSettings settings, List<Path> serverJars) {
        if (mode == ServerMode.CHILD_PROCESSES) {
            return new ProcessNode(spec, layout.viewFrom(spec.id()), settings, serverJars, security);
        }
        if (layout.specs().size() == 1) {
            return new StandaloneNode(spec, settings, name);
        }
        return new QuorumNode(spec, layout.viewFrom(spec.id()), settings, name);
    }

    /** {@return a builder of an ensemble: one in-process server unless told otherwise} */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Starts every server and returns once a leader is elected and every server serves clients.
     *
     * @throws EnsembleException if a server cannot start, or the servers do not all serve within
     *     the start timeout
     */
    public void start() {
        ensureOpen();
        if (mode == ServerMode.IN_PROCESS) {
            ServerJvmSettings.applyInProcess();
        }
        servers.startAll();
    }

    /** {@return the connect string of every server, for example {@code 127.0.0.1:41001,127.0.0.1:41002}} */
    public String connectString() {
        return servers.all().stream()
            .map(n -> "127.0.0.1:" + n.spec().clientPort())
            .collect(Collectors.joining(","));
    }

    /**
     * {@return the connect string of server {@code id} alone}
     *
     * @param id a server's id, 1 to {@link #size()}
     */
    public String connectString(int id) {
        return "127.0.0.1:" + clientPort(id);
    }

    /**
     * {@return the client port of server {@code id}}
     *
     * @param id a server's id, 1 to {@link #size()}
     */
    public int clientPort(int id) {
        return servers.node(id).spec().clientPort();
    }

    /** {@return every loopback port this ensemble holds: client ports, and quorum and election ports} */
    public List<Integer> ports() {
        return layout.reservations().stream().map(PortReservation::port).toList();
    }

    /** {@return whether {@link #close()} was called: the servers are stopped and their ports free for others} */
    public boolean isClosed() {
        return closed;
    }

    /** {@return number of servers} */
    public int size() {
        return servers.size();
    }

    /** {@return the data folder of this ensemble; server {@code id} keeps its data in {@code node-<id>}} */
    public Path dataDir() {
        return layout.root();
    }

    /**
     * {@return what server {@code id} is doing now}
     *
     * @param id a server's id, 1 to {@link #size()}
     */
    public ServerRole role(int id) {
        return servers.node(id).role();
    }

    /**
     * {@return the id of the current leader, waiting up to the start timeout while an election is under
     * way} A one-node ensemble's only server counts as its leader.
     *
     * @throws EnsembleException if no server leads within the start timeout (no quorum running)
     */
    public int leaderId() {
        return servers.awaitLeader();
    }

    /** {@return the id of the server leading right now, without waiting} */
    public OptionalInt currentLeaderId() {
        return servers.currentLeader();
    }

    /**
     * Stops server {@code id}, keeping its data. Returns once its threads have ended and its
     * client port is closed. Stopping a stopped server does nothing.
     *
     * @param id a server's id, 1 to {@link #size()}
     */
    public void stop(int id) {
        ensureOpen();
        servers.node(id).stop();
    }

    /**
     * Kills server {@code id} without any shutdown: SIGKILL for a child process (like a power cut),
     * a plain stop for an in-process server. Its data stays; {@link #restart(int)} brings it back.
     *
     * @param id a server's id, 1 to {@link #size()}
     */
    public void kill(int id) {
        ensureOpen();
        servers.kill(id);
    }

    /**
     * Freezes server {@code id} with SIGSTOP: it keeps its sockets but answers nothing, like a
     * process in a long garbage-collection pause. Only for {@link ServerMode#CHILD_PROCESSES}.
     *
     * @param id a server's id, 1 to {@link #size()}
     */
    public void pause(int id) {
        ensureOpen();
        servers.process(id, "pause").pause();
    }

    /**
     * Thaws a server frozen with {@link #pause(int)} (SIGCONT).
     *
     * @param id a server's id, 1 to {@link #size()}
     */
    public void resume(int id) {
        ensureOpen();
        servers.process(id, "resume").resume();
    }

    /**
     * {@return the operating-system process id of server {@code id} (child-process mode only)}
     *
     * @param id a server's id, 1 to {@link #size()}
     */
    public long pid(int id) {
        return servers.process(id, "pid").pid();
    }

    /** {@return where the servers run} */
    public ServerMode mode() {
        return mode;
    }

    /**
     * {@link #isolate(int, PartitionStyle)} with {@link PartitionStyle#CLOSE}.
     *
     * @param id the server to cut off, 1 to {@link #size()}
     */
    public void isolate(int id) {
        isolate(id, PartitionStyle.CLOSE);
    }

    /**
     * Cuts server {@code id} off from every other server (its clients still reach it). An isolated
     * leader loses its quorum and stops serving; the others elect a leader among themselves. An
     * isolated follower loses its leader: with {@link PartitionStyle#CLOSE} at once, with
     * {@link PartitionStyle#SILENT} only after {@code syncLimit} ticks, answering its clients'
     * pings and reads meanwhile.
     *
     * @param id the server to cut off, 1 to {@link #size()}
     * @param style whether connections across are closed or traffic silently vanishes
     * @throws UnsupportedOperationException if the ensemble was built without
     *     {@link Builder#peerProxies(boolean) peerProxies(true)}
     */
    public void isolate(int id, PartitionStyle style) {
        partition(Set.of(id), style);
    }

    /**
     * {@link #partition(Set, PartitionStyle)} with {@link PartitionStyle#CLOSE}.
     *
     * @param side the servers on one side; the rest are on the other
     */
    public void partition(Set<Integer> side) {
        partition(side, PartitionStyle.CLOSE);
    }

    /**
     * Splits the servers in two: those in {@code side} and the rest can no longer reach each other
     * (Zab and election traffic, both ways). Cuts add up: a later call cuts more routes without
     * healing earlier ones, until {@link #healPartitions()}. Partitions outlive a server's
     * restart, and work in both {@link ServerMode}s.
     *
     * @param side the servers on one side; the rest are on the other
     * @param style whether connections across are closed or traffic silently vanishes
     * @throws IllegalArgumentException unless {@code side} holds some but not all server ids
     * @throws UnsupportedOperationException if the ensemble was built without
     *     {@link Builder#peerProxies(boolean) peerProxies(true)}
     */
    public void partition(Set<Integer> side, PartitionStyle style) {
        ensureOpen();
        partitions.cut(side, style);
    }

    /** Restores every route between servers; they reconnect and the minority catches up with the leader. */
    public void healPartitions() {
        ensureOpen();
        partitions.healAll();
    }

    /**
     * {@return the servers whose traffic reaches server {@code id} (itself included)} All of them
     * unless a partition cuts some off.
     *
     * @param id a server's id, 1 to {@link #size()}
     */
    public Set<Integer> reachableFrom(int id) {
        return partitions.reachableFrom(id);
    }

    /**
     * {@return whether every server serves and all report the same last zxid (from {@code srvr})}
     * After a heal, the minority has caught up with the leader. A moment's answer; wait on it with
     * a deadline, and only while nothing writes (under a steady stream of writes the servers
     * rarely report one zxid at the same instant: wait on {@link #whole()} then).
     */
    public boolean inSync() {
        return servers.inSync(security.probes());
    }

    /**
     * {@return whether every server serves and exactly one of them leads} After a partition heals,
     * the cut-off side has rejoined (a silently cut-off leader that has not noticed yet, beside a
     * new one elected by the majority, makes two). A moment's answer; wait on it with a deadline.
     */
    public boolean whole() {
        return servers.whole();
    }

    /**
     * {@return the certificates of an ensemble built with {@link Builder#tls(boolean) tls(true)}: its
     * trust store, and client key stores and ZooKeeper client configurations on demand}
     *
     * @throws IllegalStateException if this ensemble does not serve TLS
     */
    public LocalCertificates certificates() {
        if (certificates == null) {
            throw new IllegalStateException(name + " serves plain connections; build it with tls(true) for certificates");
        }
        return certificates;
    }

    /** {@return whether server-to-server traffic runs through proxies, so that partitions can be made} */
    public boolean peerProxies() {
        return partitions.enabled();
    }

    /**
     * Starts server {@code id} again with its data (stopping it first if it runs). When enough
     * servers run to form a quorum, returns once this one serves clients again, caught up with the
     * leader; otherwise returns once it is started.
     *
     * @param id a server's id, 1 to {@link #size()}
     */
    public void restart(int id) {
        ensureOpen();
        servers.restart(id);
    }

    /** Stops every server, waits for their threads, frees the ports and deletes temporary data. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            servers.stopAll();
        } finally {
            partitions.close();
            layout.release();
        }
    }

    @Override
    public String toString() {
        return name + "[" + connectString() + "]";
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException(name + " is closed");
        }
    }
    /**
     * Configures an ensemble. Every setting is checked as it is set, with a message that names the
     * value; {@link #build()} checks the data folder and reserves the ports.
     */
    public static final class Builder {
        private int nodes = 1;
        private Path dataDir;
        private int clientPort;
        private Duration tickTime = Duration.ofMillis(500);
        private Duration minSessionTimeout = Duration.ofSeconds(1);
        private Duration maxSessionTimeout = Duration.ofSeconds(60);
        private int initLimit = 20;
        private int syncLimit = 6;
        private boolean forceSync;
        private int maxClientConnections;
        private boolean localSessions;
        private Duration startTimeout = Duration.ofSeconds(30);
        private ServerMode mode = ServerMode.IN_PROCESS;
        private boolean peerProxies;
        private String serverVersion;
        private Path serverJarsFolder;
        private boolean tls;
        private boolean clientCertificates;
        private final Map<String, String> saslUsers = new java.util.LinkedHashMap<>();

        private Builder() {
        }

        /**
         * Runs servers of ZooKeeper release {@code version} from that release's own jars, in
         * child JVMs (so {@link #mode(ServerMode) mode(CHILD_PROCESSES)} is required): how Baton's
         * client is tested against the servers people run. The jars are looked for, when the
         * ensemble is built, in a {@code zookeeper-<version>} folder under each folder named by
         * the system property {@code baton.zookeeper.jars} (separated like a class path); Maven
         * fills such folders (docs/compatibility.md). Default: this JVM's own ZooKeeper.
         *
         * @param version a release such as {@code 3.8.6}
         * @return this builder
         * @throws IllegalArgumentException if {@code version} is not a version number
         */
        public Builder serverVersion(String version) {
            this.serverVersion = checkVersion(version);
            this.serverJarsFolder = null;
            return this;
        }

        /**
         * Serve TLS, and only TLS, on every client port, with certificates made for this ensemble
         * ({@link EmbeddedEnsemble#certificates()}; nothing is read from or left outside its data
         * folder). Needs {@link ServerMode#CHILD_PROCESSES}: ZooKeeper reads a server's TLS settings
         * from JVM-wide system properties, which would leak into every client and server of this
         * JVM. Default off.
         *
         * @param on whether client ports serve TLS
         * @return this builder
         */
        public Builder tls(boolean on) {
            this.tls = on;
            return this;
        }

        /**
         * Like {@link #serverVersion(String)}, with the release's jars in {@code folder} itself
         * ({@code zookeeper-<version>.jar} and the jars it runs on).
         *
         * @param version a release such as {@code 3.8.6}
         * @param folder the folder holding that release's jars
         * @return this builder
         * @throws IllegalArgumentException if {@code version} is not a version number
         */
        public Builder serverVersion(String version, Path folder) {
            this.serverVersion = checkVersion(version);
            this.serverJarsFolder = Objects.requireNonNull(folder, "folder");
            return this;
        }

        private static String checkVersion(String version) {
            Objects.requireNonNull(version, "version");
            if (!version.matches("\\d+\\.\\d+\\.\\d+([-.][0-9A-Za-z.-]+)?")) {
                throw new IllegalArgumentException("serverVersion must be a ZooKeeper release such as 3.8.6, was '" + version + "'");
            }
            return version;
        }

        /** The jars of the chosen release, or null for this JVM's own server; checked before any port is taken. */
        private List<Path> serverJars() {
            if (serverVersion == null) {
                return null;
            }
            if (mode != ServerMode.CHILD_PROCESSES) {
                throw new IllegalArgumentException("serverVersion(\"" + serverVersion + "\") needs mode(ServerMode.CHILD_PROCESSES):"
                    + " this JVM links one ZooKeeper, so another release runs only in child JVMs; mode is " + mode);
            }
            return serverJarsFolder == null ? ServerJars.find(serverVersion) : ServerJars.in(serverVersion, serverJarsFolder);
        }

        /**
         * Refuse TLS clients without a certificate signed by the ensemble's CA, and authenticate
         * each client as its certificate's subject (scheme {@code x509}, id {@code CN=<name>}; see
         * {@link LocalCertificates#x509Id(String)}). Needs {@link #tls(boolean) tls(true)}. Default
         * off: a client may present a certificate (and is then authenticated by it) or not.
         *
         * @param on whether a client certificate is required
         * @return this builder
         */
        public Builder requireClientCertificates(boolean on) {
            this.clientCertificates = on;
            return this;
        }

        /**
         * Adds a SASL DIGEST-MD5 user and makes SASL authentication required: a session that has not
         * authenticated is closed at its first request. Clients authenticate through a JAAS
         * {@code Client} section with ZooKeeper's {@code DigestLoginModule} (see docs/security.md);
         * their ACL id is {@code sasl:<user>}. Needs {@link ServerMode#CHILD_PROCESSES}.
         *
         * @param user the user name: letters, digits, {@code .}, {@code _} and {@code -}
         * @param password the password, not blank, without {@code "} or {@code \}
         * @return this builder
         */
        public Builder saslUser(String user, String password) {
            Objects.requireNonNull(user, "user");
            Objects.requireNonNull(password, "password");
            if (!user.matches("[A-Za-z0-9._-]+")) {
                throw new IllegalArgumentException("a SASL user name is letters, digits, '.', '_' or '-', was '" + user + "'");
            }
            if (password.isBlank() || password.contains("\"") || password.contains("\\")) {
                throw new IllegalArgumentException("a SASL password must not be blank or contain '\"' or '\\' (it goes in a "
                    + "JAAS file), was " + password.length() + " characters");
            }
            saslUsers.put(user, password);
            return this;
        }

        /**
         * Whether every server-to-server connection runs through a loopback proxy in this JVM, so
         * that {@link #isolate(int)} and {@link #partition(Set)} can cut servers apart. Off by
         * default: the proxies add a hop (two threads per direction of each connection) to every
         * Zab message. Needs two or more servers.
         *
         * @param on whether to proxy server-to-server traffic
         * @return this builder
         */
        public Builder peerProxies(boolean on) {
            this.peerProxies = on;
            return this;
        }

        /**
         * Run servers in this JVM (the default) or each in a child JVM (needed to kill or freeze one).
         *
         * @param serverMode in this JVM or each in a child JVM
         * @return this builder
         */
        public Builder mode(ServerMode serverMode) {
            this.mode = Objects.requireNonNull(serverMode, "mode");
            return this;
        }

        /**
         * Number of servers: 1 (standalone) or more (a quorum; 3 or 5 are usual). Default 1.
         *
         * @param count number of servers: 1 (standalone) or more (a quorum; 3 or 5 are usual)
         * @return this builder
         */
        public Builder nodes(int count) {
            if (count < 1) {
                throw new IllegalArgumentException("nodes must be at least 1, was " + count);
            }
            if (count > 9) {
                throw new IllegalArgumentException("nodes must be at most 9 for an embedded ensemble, was " + count);
            }
            this.nodes = count;
            return this;
        }

        /**
         * Keep data in this folder (server {@code id} in {@code node-<id>}) and leave it on close.
         * By default data goes to a temporary folder that close() deletes. One ensemble at a time
         * runs on a folder: {@link #build()} refuses one that another running ensemble holds.
         *
         * @param dir the folder to keep the servers' data in
         * @return this builder
         */
        public Builder dataDir(Path dir) {
            this.dataDir = Objects.requireNonNull(dir, "dataDir");
            return this;
        }

        /**
         * Client port of server 1; server {@code n} listens on {@code port + n - 1}. By default
         * every port is a free one picked at build time.
         *
         * @param port the client port of server 1
         * @return this builder
         */
        public Builder clientPort(int port) {
            if (port < 1 || port > 65535) {
                throw new IllegalArgumentException("clientPort must be between 1 and 65535, was " + port);
            }
            this.clientPort = port;
            return this;
        }

        /**
         * ZooKeeper's tick: heartbeat interval and session-expiry granularity. Default 500 ms.
         *
         * @param tick the tick, positive
         * @return this builder
         */
        public Builder tickTime(Duration tick) {
            requirePositive("tickTime", tick);
            this.tickTime = tick;
            return this;
        }

        /**
         * Bounds on the session timeout the servers grant to clients. Default 1 s to 60 s.
         *
         * @param min the shortest session timeout granted
         * @param max the longest session timeout granted, at least {@code min}
         * @return this builder
         */
        public Builder sessionTimeoutBounds(Duration min, Duration max) {
            requirePositive("minSessionTimeout", min);
            requirePositive("maxSessionTimeout", max);
            if (min.compareTo(max) > 0) {
                throw new IllegalArgumentException("minSessionTimeout " + min + " is larger than maxSessionTimeout " + max);
            }
            this.minSessionTimeout = min;
            this.maxSessionTimeout = max;
            return this;
        }

        /**
         * Sessions start local to the server they connect to, and become global (known to the
         * quorum) when they first create an ephemeral node: ZooKeeper's {@code localSessionsEnabled}
         * with {@code localSessionsUpgradingEnabled}. Needed for read-only mode (a server started
         * with the JVM property {@code readonlymode.enabled} that lost its quorum): such a server
         * can create local sessions only. Default off.
         *
         * @param on whether sessions start local
         * @return this builder
         */
        public Builder localSessions(boolean on) {
            this.localSessions = on;
            return this;
        }

        /**
         * Ticks a follower may take to connect and sync to a new leader. Default 20.
         *
         * @param ticks ticks, 1 or more
         * @return this builder
         */
        public Builder initLimit(int ticks) {
            if (ticks < 1) {
                throw new IllegalArgumentException("initLimit must be at least 1 tick, was " + ticks);
            }
            this.initLimit = ticks;
            return this;
        }

        /**
         * Ticks a follower may fall behind before the leader drops it. Default 6.
         *
         * @param ticks ticks, 1 or more
         * @return this builder
         */
        public Builder syncLimit(int ticks) {
            if (ticks < 1) {
                throw new IllegalArgumentException("syncLimit must be at least 1 tick, was " + ticks);
            }
            this.syncLimit = ticks;
            return this;
        }

        /**
         * Whether every transaction is fsynced before it is acknowledged. Off by default (tests do
         * not need durability across power loss); turn on to measure or to run durably.
         *
         * @param on whether every transaction is fsynced before it is acknowledged
         * @return this builder
         */
        public Builder forceSync(boolean on) {
            this.forceSync = on;
            return this;
        }

        /**
         * Connections one client address may hold; 0 (the default) means unlimited.
         *
         * @param max connections per client address, 0 for unlimited
         * @return this builder
         */
        public Builder maxClientConnections(int max) {
            if (max < 0) {
                throw new IllegalArgumentException("maxClientConnections must be 0 (unlimited) or more, was " + max);
            }
            this.maxClientConnections = max;
            return this;
        }

        /**
         * How long start(), restart() and leaderId() wait for servers to serve. Default 30 s.
         *
         * @param timeout how long start(), restart() and leaderId() wait for servers to serve
         * @return this builder
         */
        public Builder startTimeout(Duration timeout) {
            requirePositive("startTimeout", timeout);
            this.startTimeout = timeout;
            return this;
        }

        /**
         * Checks the data folder and reserves the ports.
         *
         * @return the ensemble, not yet started
         * @throws IllegalArgumentException if the data folder cannot be written or another running
         *     ensemble (in this or another process) holds it, a requested client port is taken
         *     (something listens on it, or another embedded ensemble has reserved it; the
         *     exception's cause is then a {@link java.net.BindException}), or a server version was
         *     chosen without child processes
         * @throws MissingServerJarsException if the jars of the chosen server version are not found
         */
        public EmbeddedEnsemble build() {
            checkCombination();
            List<Path> serverJars = serverJars();
            Layout layout = Layout.create(nodes, clientPort, dataDir, peerProxies);
            try {
                return new EmbeddedEnsemble(this, layout, serverJars);
            } catch (RuntimeException e) {
                layout.release();  // no ensemble to close: free its ports, lock and temporary folder here
                throw e;
            }
        }

        /** The checks of settings that are each valid alone but not together, before anything is taken. */
        private void checkCombination() {
            if (minSessionTimeout.compareTo(tickTime.multipliedBy(2)) < 0) {
                throw new IllegalArgumentException("minSessionTimeout " + minSessionTimeout
                    + " must be at least two ticks (tickTime is " + tickTime + ")");
            }
            if (peerProxies && nodes < 2) {
                throw new IllegalArgumentException("peerProxies(true) needs two or more servers to put proxies between, nodes is " + nodes);
            }
            if ((tls || !saslUsers.isEmpty()) && mode != ServerMode.CHILD_PROCESSES) {
                throw new IllegalArgumentException((tls ? "tls(true)" : "saslUser(...)") + " needs mode(ServerMode.CHILD_PROCESSES): "
                    + "ZooKeeper reads a server's TLS and authentication settings from JVM-wide system properties; mode is " + mode);
            }
            if (clientCertificates && !tls) {
                throw new IllegalArgumentException("requireClientCertificates(true) needs tls(true): certificates travel over TLS");
            }
        }

        private static void requirePositive(String name, Duration value) {
            Objects.requireNonNull(value, name);
            if (value.isNegative() || value.isZero()) {
                throw new IllegalArgumentException(name + " must be positive, was " + value);
            }
        }
    }
}
