package dev.baton.recipes.discovery;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Configures a {@link ServiceInstance}: {@code ServiceInstance.<T>builder()} or
 * {@code instance.toBuilder()}. Each setting is checked as it is set, with a message naming the
 * bad value; {@link #build()} requires a name.
 *
 * @param <T> the payload type
 */
public final class ServiceInstanceBuilder<T> {
    // read by ServiceInstance's constructor
    String name;
    String id;
    String address;
    boolean addressSet;
    Integer port;
    Integer sslPort;
    T payload;
    Long registrationTimeUTC;
    ServiceType serviceType = ServiceType.DYNAMIC;
    String uriSpec;
    boolean enabled = true;
    final Map<String, String> metadata = new LinkedHashMap<>();

    ServiceInstanceBuilder() {
    }

    /**
     * The service's name: one znode name, such as {@code "orders"}. Required.
     *
     * @param name the service's name: one znode name, such as {@code "orders"}
     * @return this builder
     */
    public ServiceInstanceBuilder<T> name(String name) {
        this.name = Names.segment("service name", name);
        return this;
    }

    /**
     * This instance's id, unique within the service: one znode name. Default: a random UUID.
     *
     * @param id this instance's id, unique within the service: one znode name
     * @return this builder
     */
    public ServiceInstanceBuilder<T> id(String id) {
        this.id = Names.segment("instance id", id);
        return this;
    }

    /**
     * Host name or IP address (null for none). Default: this host's first non-loopback IPv4 address.
     *
     * @param address a host name or IP address, or null for none
     * @return this builder
     */
    public ServiceInstanceBuilder<T> address(String address) {
        if (address != null && address.isBlank()) {
            throw new IllegalArgumentException("address must not be blank, was '" + address + "'");
        }
        this.address = address;
        this.addressSet = true;
        return this;
    }

    /**
     * The port, 0 to 65535. Default: none.
     *
     * @param port the port, 0 to 65535
     * @return this builder
     */
    public ServiceInstanceBuilder<T> port(int port) {
        this.port = checkPort("port", port);
        return this;
    }

    /**
     * The TLS port, 0 to 65535 (it makes {@code {scheme}} "https"). Default: none.
     *
     * @param sslPort the TLS port, 0 to 65535 (it makes {@code {scheme}} "https")
     * @return this builder
     */
    public ServiceInstanceBuilder<T> sslPort(int sslPort) {
        this.sslPort = checkPort("sslPort", sslPort);
        return this;
    }

    /**
     * The payload (null for none); it must be serialisable by Jackson.
     *
     * @param payload the payload (null for none); it must be serialisable by Jackson
     * @return this builder
     */
    public ServiceInstanceBuilder<T> payload(T payload) {
        this.payload = payload;
        return this;
    }

    /**
     * Default {@link ServiceType#DYNAMIC}.
     *
     * @param serviceType how the node lives (default {@link ServiceType#DYNAMIC}: with the session)
     * @return this builder
     */
    public ServiceInstanceBuilder<T> serviceType(ServiceType serviceType) {
        this.serviceType = Objects.requireNonNull(serviceType, "serviceType");
        return this;
    }

    /**
     * A URI template such as {@code "{scheme}://{address}:{port}/api"} (null for none).
     *
     * @param uriSpec a URI template such as {@code "{scheme}://{address}:{port}/api"} (null for none)
     * @return this builder
     */
    public ServiceInstanceBuilder<T> uriSpec(String uriSpec) {
        if (uriSpec != null) {
            UriTemplate.parse(uriSpec);
        }
        this.uriSpec = uriSpec;
        return this;
    }

    /**
     * Whether the instance is offered (default true). See also {@link #health(Health)}.
     *
     * @param enabled whether the instance is offered (default true)
     * @return this builder
     */
    public ServiceInstanceBuilder<T> enabled(boolean enabled) {
        this.enabled = enabled;
        return this;
    }

    /**
     * Registration time in milliseconds since the epoch. Default: when {@link #build()} runs.
     *
     * @param millis milliseconds since the epoch, 0 or more
     * @return this builder
     */
    public ServiceInstanceBuilder<T> registrationTimeUTC(long millis) {
        if (millis < 0) {
            throw new IllegalArgumentException("registrationTimeUTC must be 0 or more, was " + millis);
        }
        this.registrationTimeUTC = millis;
        return this;
    }

    /**
     * Sets one metadata entry; a null value removes it.
     *
     * @param key the entry's key, not empty
     * @param value its value; null removes the entry
     * @return this builder
     */
    public ServiceInstanceBuilder<T> metadata(String key, String value) {
        Objects.requireNonNull(key, "metadata key");
        if (key.isEmpty()) {
            throw new IllegalArgumentException("metadata key must not be empty");
        }
        if (value == null) {
            metadata.remove(key);
        } else {
            metadata.put(key, value);
        }
        return this;
    }

    /**
     * Sets every entry of {@code entries} (keeping others).
     *
     * @param entries the entries to set
     * @return this builder
     */
    public ServiceInstanceBuilder<T> metadata(Map<String, String> entries) {
        Objects.requireNonNull(entries, "metadata").forEach(this::metadata);
        return this;
    }

    /**
     * The zone (metadata {@value ServiceInstance#ZONE_KEY}); null removes it.
     *
     * @param zone the zone (metadata {@value ServiceInstance#ZONE_KEY}); null removes it
     * @return this builder
     */
    public ServiceInstanceBuilder<T> zone(String zone) {
        return metadata(ServiceInstance.ZONE_KEY, zone);
    }

    /**
     * The weight for {@link WeightedStrategy} (metadata {@value ServiceInstance#WEIGHT_KEY}), 0 or more; 0
     * means "only if nothing else".
     *
     * @param weight the weight for {@link WeightedStrategy} (metadata {@value ServiceInstance#WEIGHT_KEY}), 0
     *     or more; 0 means "only if nothing else"
     * @return this builder
     */
    public ServiceInstanceBuilder<T> weight(int weight) {
        if (weight < 0) {
            throw new IllegalArgumentException("weight must be 0 or more, was " + weight);
        }
        return metadata(ServiceInstance.WEIGHT_KEY, Integer.toString(weight));
    }

    /**
     * The health (metadata {@value Health#METADATA_KEY}); also sets {@code enabled} to
     * {@code health == UP}, so that Curator consumers, which only know {@code enabled}, agree.
     *
     * @param health the health (metadata {@value Health#METADATA_KEY}); also sets {@code enabled} to {@code
     *     health == UP}, so that Curator consumers, which only know {@code enabled}, agree
     * @return this builder
     */
    public ServiceInstanceBuilder<T> health(Health health) {
        Objects.requireNonNull(health, "health");
        this.enabled = health == Health.UP;
        return metadata(Health.METADATA_KEY, health == Health.UP ? null : health.name());
    }

    /**
     * {@return the instance}
     *
     * @throws IllegalStateException if no name was given
     */
    public ServiceInstance<T> build() {
        if (name == null) {
            throw new IllegalStateException("name is required: ServiceInstance.builder().name(\"orders\")");
        }
        return new ServiceInstance<>(this);
    }

    /** Ports as stored (null meaning none): for the JSON reader and toBuilder(). */
    ServiceInstanceBuilder<T> ports(Integer port, Integer sslPort) {
        this.port = port == null ? null : checkPort("port", port);
        this.sslPort = sslPort == null ? null : checkPort("sslPort", sslPort);
        return this;
    }

    private static int checkPort(String what, int port) {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException(what + " must be 0 to 65535, was " + port);
        }
        return port;
    }
}
