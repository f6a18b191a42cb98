package dev.baton.spring;

import dev.baton.framework.BatonClient;
import dev.baton.framework.ErrorPolicy;
import dev.baton.framework.ZPaths;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The {@code baton.*} settings of a Spring Boot service: the client's ensemble, namespace,
 * timeouts, retries, credentials and error policy; the embedded ensemble for local development
 * and tests; the lock registry, the leader initiator and the discovery registration.
 *
 * <p>Durations take Spring's forms ({@code 30s}, {@code 500ms}, {@code PT1M}). Each field's
 * javadoc is the description IDEs show when completing the key (spring-boot-configuration-processor
 * writes it into the jar's metadata). Unset timeouts and retries keep {@link BatonClient.Builder}'s
 * defaults.
 */
@ConfigurationProperties(prefix = "baton")
public class BatonProperties {
    /**
     * The ZooKeeper ensemble: host:port[,host:port...][/chroot], for example
     * "zk1:2181,zk2:2181,zk3:2181/app". Not needed when baton.embedded.enabled is true.
     */
    private String connectString;

    /** Namespace every path of the client is relative to, such as "billing" (created when first needed). */
    private String namespace;

    /** Session timeout asked of the servers (they clamp it to their bounds). Default 30s. */
    private Duration sessionTimeout;

    /** How long an operation waits for a connection before it fails. Default 15s. */
    private Duration connectionTimeout;

    /**
     * How long start-up waits for the first connection; start-up fails if it is not made in time.
     * Zero (the default) does not wait: the client connects in the background and operations
     * wait for it.
     */
    private Duration startupTimeout = Duration.ZERO;

    /**
     * Which connection states recipes treat as loss of what they hold: STANDARD (a suspended
     * connection already counts; the default) or SESSION_ONLY (only the session's end counts).
     */
    private ErrorPolicy errorPolicy;

    /** Retries of recoverable failures (exponential backoff). */
    private final Retry retry = new Retry();

    /** Credentials added to every session. */
    private final Auth auth = new Auth();

    /** An embedded ZooKeeper ensemble in this JVM, for local development and tests. */
    private final Embedded embedded = new Embedded();

    /** The Spring Integration LockRegistry backed by Baton's mutex. */
    private final LockRegistry lockRegistry = new LockRegistry();

    /** The leader initiator. */
    private final Leadership leadership = new Leadership();

    /** Registration of this service in Baton's service discovery. */
    private final Discovery discovery = new Discovery();

    /** {@return the ensemble, or null when unset} */
    public String getConnectString() {
        return connectString;
    }

    /**
     * Sets the ensemble: {@code host:port[,host:port...][/chroot]}.
     *
     * @param connectString the ensemble: {@code host:port[,host:port...][/chroot]}
     */
    public void setConnectString(String connectString) {
        this.connectString = connectString;
    }

    /** {@return the namespace, or null for none} */
    public String getNamespace() {
        return namespace;
    }

    /**
     * Sets the namespace every path is relative to.
     *
     * @param namespace the namespace every path is relative to
     */
    public void setNamespace(String namespace) {
        try {
            BatonClient.builder().namespace(namespace);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("baton.namespace must be a path relative to the root, such as 'billing' or "
                + "'billing/v2', was '" + namespace + "': " + e.getMessage(), e);
        }
        this.namespace = namespace;
    }

    /** {@return the session timeout to ask for, or null for the client's default} */
    public Duration getSessionTimeout() {
        return sessionTimeout;
    }

    /**
     * Sets the session timeout to ask the servers for.
     *
     * @param sessionTimeout the session timeout to ask the servers for
     */
    public void setSessionTimeout(Duration sessionTimeout) {
        this.sessionTimeout = positive("baton.session-timeout", sessionTimeout);
    }

    /** {@return the connection timeout, or null for the client's default} */
    public Duration getConnectionTimeout() {
        return connectionTimeout;
    }

    /**
     * Sets how long an operation waits for a connection.
     *
     * @param connectionTimeout how long an operation waits for a connection
     */
    public void setConnectionTimeout(Duration connectionTimeout) {
        this.connectionTimeout = positive("baton.connection-timeout", connectionTimeout);
    }

    /** {@return how long start-up waits for the first connection (zero: not at all)} */
    public Duration getStartupTimeout() {
        return startupTimeout;
    }

    /**
     * Sets how long start-up waits for the first connection (zero: not at all).
     *
     * @param startupTimeout how long start-up waits for the first connection (zero: not at all)
     */
    public void setStartupTimeout(Duration startupTimeout) {
        if (startupTimeout != null && startupTimeout.isNegative()) {
            throw new IllegalArgumentException("baton.startup-timeout must be zero (do not wait) or more, was " + startupTimeout);
        }
        this.startupTimeout = startupTimeout;
    }

    /** {@return the error policy, or null for the client's default} */
    public ErrorPolicy getErrorPolicy() {
        return errorPolicy;
    }

    /**
     * Sets which connection states recipes treat as loss.
     *
     * @param errorPolicy which connection states recipes treat as loss
     */
    public void setErrorPolicy(ErrorPolicy errorPolicy) {
        this.errorPolicy = errorPolicy;
    }

    /** {@return the retry settings} */
    public Retry getRetry() {
        return retry;
    }

    /** {@return the credentials} */
    public Auth getAuth() {
        return auth;
    }

    /** {@return the embedded ensemble's settings} */
    public Embedded getEmbedded() {
        return embedded;
    }

    /** {@return the lock registry's settings} */
    public LockRegistry getLockRegistry() {
        return lockRegistry;
    }

    /** {@return the leader initiator's settings} */
    public Leadership getLeadership() {
        return leadership;
    }

    /** {@return the discovery registration's settings} */
    public Discovery getDiscovery() {
        return discovery;
    }

    /**
     * Refuses a duration that is zero or negative. A setter's exception fails binding, and Spring
     * Boot's start-up failure then shows the property, the value as written and this reason.
     */
    private static Duration positive(String property, Duration value) {
        if (value != null && (value.isZero() || value.isNegative())) {
            throw new IllegalArgumentException(property + " must be greater than zero, was " + value);
        }
        return value;
    }

    /**
     * Refuses a folder a recipe could not use, with a message naming the property, the folder and
     * what is wrong. Checked while binding, so a bad path fails start-up, not the first request
     * that takes a lock.
     */
    private static void path(String property, String folder, boolean rootAllowed) {
        if (rootAllowed) {
            ZPaths.validateBasePath(property, folder);
        } else {
            ZPaths.validateRecipePath(property, folder);
        }
    }

    // The groups below stay nested on purpose. Their names (BatonProperties.Retry, ...) are public
    // API and the group types of the configuration metadata; as top-level classes the processor
    // would describe their keys only with @NestedConfigurationProperty, under new type names.

    /** Exponential backoff: each retry sleeps about twice the one before, up to a cap. */
    public static class Retry {
        /** Sleep before the first retry. Default 100ms. */
        private Duration baseSleep = Duration.ofMillis(100);

        /** How many times a failed operation is retried. Default 5. */
        private int maxRetries = 5;

        /** The longest sleep between two tries. Default 5s. */
        private Duration maxSleep = Duration.ofSeconds(5);

        /** {@return the sleep before the first retry} */
        public Duration getBaseSleep() {
            return baseSleep;
        }

        /**
         * Sets the sleep before the first retry.
         *
         * @param baseSleep the sleep before the first retry
         */
        public void setBaseSleep(Duration baseSleep) {
            this.baseSleep = positive("baton.retry.base-sleep", baseSleep);
        }

        /** {@return how many times a failed operation is retried} */
        public int getMaxRetries() {
            return maxRetries;
        }

        /**
         * Sets how many times a failed operation is retried.
         *
         * @param maxRetries how many times a failed operation is retried
         */
        public void setMaxRetries(int maxRetries) {
            if (maxRetries < 0) {
                throw new IllegalArgumentException("baton.retry.max-retries must be zero (no retries) or more, was " + maxRetries);
            }
            this.maxRetries = maxRetries;
        }

        /** {@return the longest sleep between two tries} */
        public Duration getMaxSleep() {
            return maxSleep;
        }

        /**
         * Sets the longest sleep between two tries.
         *
         * @param maxSleep the longest sleep between two tries
         */
        public void setMaxSleep(Duration maxSleep) {
            this.maxSleep = positive("baton.retry.max-sleep", maxSleep);
        }
    }

    /** ZooKeeper authentication, added to every session the client opens. */
    public static class Auth {
        /** Authentication scheme, such as "digest". Unset: no credentials. */
        private String scheme;

        /** Credentials as the scheme expects them, such as "user:secret" for digest (sent as UTF-8). */
        private String credentials;

        /** {@return the scheme, or null for none} */
        public String getScheme() {
            return scheme;
        }

        /**
         * Sets the authentication scheme, such as {@code digest}.
         *
         * @param scheme the authentication scheme, such as {@code digest}
         */
        public void setScheme(String scheme) {
            this.scheme = scheme;
        }

        /** {@return the credentials, or null} */
        public String getCredentials() {
            return credentials;
        }

        /**
         * Sets the credentials, as the scheme expects them.
         *
         * @param credentials the credentials, as the scheme expects them
         */
        public void setCredentials(String credentials) {
            this.credentials = credentials;
        }
    }

    /** A real ZooKeeper ensemble started in this JVM (needs dev.baton:baton-server-embedded). */
    public static class Embedded {
        /**
         * Whether to start an embedded ensemble and connect the client to it (connect-string is
         * then ignored). For local development and tests, never production. Default false.
         */
        private boolean enabled;

        /** Servers in the embedded ensemble: 1, 3 or 5. Default 1. */
        private int nodes = 1;

        /** Client port of server 1 (server n listens on port + n - 1). Default 0: free ports. */
        private int port;

        /** Folder that keeps the servers' data across restarts. Default: a temporary folder deleted on close. */
        private Path dataDir;

        /** {@return whether the embedded ensemble is on} */
        public boolean isEnabled() {
            return enabled;
        }

        /**
         * Sets whether to start an embedded ensemble.
         *
         * @param enabled whether to start an embedded ensemble
         */
        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        /** {@return the number of servers} */
        public int getNodes() {
            return nodes;
        }

        /**
         * Sets the number of servers: 1, 3 or 5.
         *
         * @param nodes the number of servers: 1, 3 or 5
         */
        public void setNodes(int nodes) {
            if (nodes != 1 && nodes != 3 && nodes != 5) {
                throw new IllegalArgumentException("baton.embedded.nodes must be 1, 3 or 5, was " + nodes);
            }
            this.nodes = nodes;
        }

        /** {@return the client port of server 1, or 0 for free ports} */
        public int getPort() {
            return port;
        }

        /**
         * Sets the client port of server 1, or 0 for free ports.
         *
         * @param port the client port of server 1, or 0 for free ports
         */
        public void setPort(int port) {
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("baton.embedded.port must be 0 (free ports) or a port up to 65535, was " + port);
            }
            this.port = port;
        }

        /** {@return the data folder, or null for a temporary one} */
        public Path getDataDir() {
            return dataDir;
        }

        /**
         * Sets the folder to keep the servers' data in.
         *
         * @param dataDir the folder to keep the servers' data in
         */
        public void setDataDir(Path dataDir) {
            this.dataDir = dataDir;
        }
    }

    /** The Spring Integration {@code LockRegistry} (needs baton-recipes-lock and spring-integration-core). */
    public static class LockRegistry {
        /** Whether to define the LockRegistry bean when its dependencies are present. Default true. */
        private boolean enabled = true;

        /**
         * Folder under which each key's lock lives (root/key). The default is Spring Integration's
         * ZookeeperLockRegistry's, so Baton and Curator-based services exclude each other.
         */
        private String root = "/SpringIntegration-LockRegistry";

        /** How many idle locks the registry keeps in memory (the least recently used go first). Default 30000. */
        private int cacheCapacity = 30_000;

        /** {@return whether the registry bean is defined} */
        public boolean isEnabled() {
            return enabled;
        }

        /**
         * Sets whether the registry bean is defined.
         *
         * @param enabled whether the registry bean is defined
         */
        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        /** {@return the folder of the locks} */
        public String getRoot() {
            return root;
        }

        /**
         * Sets the folder of the locks.
         *
         * @param root the folder of the locks
         */
        public void setRoot(String root) {
            // the registry drops one trailing slash itself
            String folder = root != null && root.length() > 1 && root.endsWith("/") ? root.substring(0, root.length() - 1) : root;
            if (!"/".equals(folder)) {
                path("baton.lock-registry.root", folder, false);
            }
            this.root = root;
        }

        /** {@return how many idle locks are kept in memory} */
        public int getCacheCapacity() {
            return cacheCapacity;
        }

        /**
         * Sets how many idle locks are kept in memory.
         *
         * @param cacheCapacity how many idle locks are kept in memory
         */
        public void setCacheCapacity(int cacheCapacity) {
            if (cacheCapacity < 1) {
                throw new IllegalArgumentException("baton.lock-registry.cache-capacity must be at least 1, was " + cacheCapacity);
            }
            this.cacheCapacity = cacheCapacity;
        }
    }

    /** The leader initiator (needs baton-recipes-election). */
    public static class Leadership {
        /** Whether this instance takes part in a leader election. Default false. */
        private boolean enabled;

        /** The role elected; Spring Integration's @Role endpoints of this role follow leadership. Default "leader". */
        private String role = "leader";

        /** The election's folder. Default: /baton/leadership/{role}. */
        private String path;

        /** What this instance publishes as its participant id. Default: {spring.application.name}@{pid@host}. */
        private String participantId;

        /** {@return whether the election is on} */
        public boolean isEnabled() {
            return enabled;
        }

        /**
         * Sets whether this instance takes part in a leader election.
         *
         * @param enabled whether this instance takes part in a leader election
         */
        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        /** {@return the role} */
        public String getRole() {
            return role;
        }

        /**
         * Sets the role elected.
         *
         * @param role the role elected
         */
        public void setRole(String role) {
            if (role == null || role.isEmpty()) {
                throw new IllegalArgumentException("baton.leadership.role must not be empty, was " + (role == null ? "null" : "''"));
            }
            this.role = role;
        }

        /** {@return the election's folder, or null for the default} */
        public String getPath() {
            return path;
        }

        /**
         * Sets the election's folder.
         *
         * @param path the election's folder
         */
        public void setPath(String path) {
            path("baton.leadership.path", path, false);
            this.path = path;
        }

        /** {@return the participant id, or null for the default} */
        public String getParticipantId() {
            return participantId;
        }

        /**
         * Sets what this instance publishes as its participant id.
         *
         * @param participantId what this instance publishes as its participant id
         */
        public void setParticipantId(String participantId) {
            this.participantId = participantId;
        }
    }

    /** Registration of this service instance in discovery (needs baton-recipes-discovery). */
    public static class Discovery {
        /** Whether to register this instance while the application runs. Default false. */
        private boolean register;

        /** The discovery's base path. Default "/services" (Spring Cloud Zookeeper's). */
        private String basePath = "/services";

        /** The service's name. Default: spring.application.name. */
        private String serviceName;

        /** This instance's id, unique within the service. Default: a random UUID. */
        private String instanceId;

        /** Host name or address others reach this instance at. Default: this host's first non-loopback IPv4 address. */
        private String address;

        /** Port others reach this instance at. Default: the web server's port, else server.port. */
        private Integer port;

        /** Metadata published with the instance (Curator-compatible "metadata" of the payload-free JSON). */
        private Map<String, String> metadata = new LinkedHashMap<>();

        /** {@return whether this instance registers} */
        public boolean isRegister() {
            return register;
        }

        /**
         * Sets whether this instance registers.
         *
         * @param register whether this instance registers
         */
        public void setRegister(boolean register) {
            this.register = register;
        }

        /** {@return the base path} */
        public String getBasePath() {
            return basePath;
        }

        /**
         * Sets the discovery's base path.
         *
         * @param basePath the discovery's base path
         */
        public void setBasePath(String basePath) {
            path("baton.discovery.base-path", basePath, true);
            this.basePath = basePath;
        }

        /** {@return the service name, or null for spring.application.name} */
        public String getServiceName() {
            return serviceName;
        }

        /**
         * Sets the service's name.
         *
         * @param serviceName the service's name
         */
        public void setServiceName(String serviceName) {
            this.serviceName = serviceName;
        }

        /** {@return the instance id, or null for a random one} */
        public String getInstanceId() {
            return instanceId;
        }

        /**
         * Sets this instance's id.
         *
         * @param instanceId this instance's id
         */
        public void setInstanceId(String instanceId) {
            this.instanceId = instanceId;
        }

        /** {@return the address, or null for this host's} */
        public String getAddress() {
            return address;
        }

        /**
         * Sets the host name or address others reach this instance at.
         *
         * @param address the host name or address others reach this instance at
         */
        public void setAddress(String address) {
            this.address = address;
        }

        /** {@return the port, or null for the web server's} */
        public Integer getPort() {
            return port;
        }

        /**
         * Sets the port others reach this instance at.
         *
         * @param port the port others reach this instance at
         */
        public void setPort(Integer port) {
            if (port != null && (port < 1 || port > 65535)) {
                throw new IllegalArgumentException("baton.discovery.port must be a port from 1 to 65535, was " + port);
            }
            this.port = port;
        }

        /** {@return the metadata} */
        public Map<String, String> getMetadata() {
            return metadata;
        }

        /**
         * Sets the metadata published with the instance.
         *
         * @param metadata the metadata published with the instance
         */
        public void setMetadata(Map<String, String> metadata) {
            this.metadata = metadata;
        }
    }
}
