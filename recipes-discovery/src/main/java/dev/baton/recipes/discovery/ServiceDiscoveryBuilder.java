package dev.baton.recipes.discovery;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.baton.framework.BatonClient;
import java.time.Duration;
import java.util.Collections;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * Configures a {@link ServiceDiscovery}. Each setting is checked as it is set; {@link #build()}
 * requires a client and a base path.
 *
 * <pre>{@code
 * ServiceDiscovery<Endpoint> discovery = ServiceDiscoveryBuilder.builder(Endpoint.class)
 *     .client(client)
 *     .basePath("/services")
 *     .build();
 * }</pre>
 *
 * @param <T> the payload type
 */
public final class ServiceDiscoveryBuilder<T> {
    /** Largest instance JSON written or read by default: 64 KiB. Larger nodes are skipped when read. */
    public static final int DEFAULT_MAX_INSTANCE_BYTES = 64 * 1024;

    private final Class<T> payloadClass;
    private BatonClient client;
    private String basePath;
    private ServiceInstance<T> thisInstance;
    private ObjectMapper mapper;
    private int maxInstanceBytes = DEFAULT_MAX_INSTANCE_BYTES;
    private final Set<String> requiredServices = new TreeSet<>();
    private Duration dependencyTimeout = Duration.ZERO;
    private boolean failOnMissingDependencies = true;

    private ServiceDiscoveryBuilder(Class<T> payloadClass) {
        this.payloadClass = payloadClass;
    }

    /**
     * {@return a builder for instances whose payload is a {@code payloadClass} (use {@code Void.class} for
     * none, {@code Object.class} for plain JSON maps, lists and values)} Payloads read from
     * ZooKeeper are always bound to this class.
     *
     * @param <T> the payload type
     * @param payloadClass the payload's class
     */
    public static <T> ServiceDiscoveryBuilder<T> builder(Class<T> payloadClass) {
        return new ServiceDiscoveryBuilder<>(Objects.requireNonNull(payloadClass, "payloadClass"));
    }

    /**
     * The client (started by the caller). Required.
     *
     * @param client the client (started by the caller)
     * @return this builder
     */
    public ServiceDiscoveryBuilder<T> client(BatonClient client) {
        this.client = Objects.requireNonNull(client, "client");
        return this;
    }

    /**
     * The registry's root, such as {@code "/services"}; Curator services must use the same. Required.
     *
     * @param basePath the registry's root, such as {@code "/services"}; Curator services must use the same
     * @return this builder
     * @throws dev.baton.framework.InvalidPathException if {@code basePath} is not a valid absolute path
     */
    public ServiceDiscoveryBuilder<T> basePath(String basePath) {
        this.basePath = Names.basePath(basePath);
        return this;
    }

    /**
     * An instance registered by {@link ServiceDiscovery#start()}.
     *
     * @param instance an instance registered by {@link ServiceDiscovery#start()}
     * @return this builder
     */
    public ServiceDiscoveryBuilder<T> thisInstance(ServiceInstance<T> instance) {
        this.thisInstance = Objects.requireNonNull(instance, "thisInstance");
        return this;
    }

    /**
     * The Jackson mapper for payloads (for modules such as Java time). A copy is used, with
     * default typing switched off so that class names in data stay inert; unknown payload
     * properties are ignored unless the mapper says otherwise.
     *
     * @param mapper the Jackson mapper for payloads (for modules such as Java time)
     * @return this builder
     */
    public ServiceDiscoveryBuilder<T> objectMapper(ObjectMapper mapper) {
        this.mapper = Objects.requireNonNull(mapper, "objectMapper").copy().deactivateDefaultTyping();
        return this;
    }

    /**
     * Largest instance JSON written or read, 1 KiB to 1 MiB. Default {@link #DEFAULT_MAX_INSTANCE_BYTES}.
     *
     * @param bytes the limit, 1,024 to 1,048,576
     * @return this builder
     */
    public ServiceDiscoveryBuilder<T> maxInstanceBytes(int bytes) {
        if (bytes < 1024 || bytes > 1024 * 1024) {
            throw new IllegalArgumentException("maxInstanceBytes must be 1024 to 1048576, was " + bytes);
        }
        this.maxInstanceBytes = bytes;
        return this;
    }

    /**
     * Services this one cannot work without: {@link ServiceDiscovery#start()} checks that each has
     * a usable (enabled, UP) instance before registering anything, and fails with
     * {@link MissingDependencyException} (or warns, see {@link #failOnMissingDependencies}).
     *
     * @param names the required services' names
     * @return this builder
     */
    public ServiceDiscoveryBuilder<T> requireServices(String... names) {
        for (String name : Objects.requireNonNull(names, "names")) {
            requiredServices.add(Names.segment("required service name", name));
        }
        return this;
    }

    /**
     * How long start() waits for missing required services to appear. Default zero: check once.
     *
     * @param timeout how long start() waits for missing required services to appear
     * @return this builder
     */
    public ServiceDiscoveryBuilder<T> dependencyTimeout(Duration timeout) {
        Objects.requireNonNull(timeout, "dependencyTimeout");
        if (timeout.isNegative()) {
            throw new IllegalArgumentException("dependencyTimeout must not be negative, was " + timeout);
        }
        this.dependencyTimeout = timeout;
        return this;
    }

    /**
     * Whether a missing required service fails start() (default) or is only logged as a warning.
     *
     * @param fail whether a missing required service fails start() (default) or is only logged as a warning
     * @return this builder
     */
    public ServiceDiscoveryBuilder<T> failOnMissingDependencies(boolean fail) {
        this.failOnMissingDependencies = fail;
        return this;
    }

    /** Plain Jackson: no default typing; unknown payload properties ignored, as Curator's reader does. */
    static ObjectMapper defaultMapper() {
        return JsonMapper.builder().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();
    }

    /**
     * {@return a discovery with these settings, not yet started}
     *
     * @throws IllegalStateException if no client was given
     */
    public ServiceDiscovery<T> build() {
        if (client == null) {
            throw new IllegalStateException("client is required: ServiceDiscoveryBuilder.builder(T.class).client(client)");
        }
        if (basePath == null) {
            throw new IllegalStateException("basePath is required: ServiceDiscoveryBuilder.builder(T.class).basePath(\"/services\")");
        }
        InstanceJson<T> json = new InstanceJson<>(payloadClass, mapper != null ? mapper : defaultMapper(), maxInstanceBytes);
        if (thisInstance != null) {
            json.encode(thisInstance);  // fails now, with the reason, rather than at start()
        }
        return new ServiceDiscovery<>(client, basePath, json, thisInstance,
            Collections.unmodifiableSet(new TreeSet<>(requiredServices)), dependencyTimeout, failOnMissingDependencies);
    }
}
