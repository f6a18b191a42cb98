package dev.baton.recipes.discovery;

import java.net.URI;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.UUID;

/**
 * One registered instance of a service: where it listens, what it carries, and how it is
 * registered. Immutable; build one with {@link #builder()}, change one with {@link #toBuilder()}.
 *
 * <p>The fields are Curator's ({@code name id address port sslPort payload registrationTimeUTC
 * serviceType uriSpec enabled}) and are stored as the same JSON. Beyond Curator, an instance
 * carries string {@link #metadata()}, stored in a {@code "metadata"} JSON field that Curator
 * ignores; three keys have accessors: {@link #zone()}, {@link #weight()} and {@link #health()}.
 *
 * <pre>{@code
 * ServiceInstance<Endpoint> me = ServiceInstance.<Endpoint>builder()
 *     .name("orders").address("10.0.0.7").port(8080)
 *     .uriSpec("{scheme}://{address}:{port}/api")
 *     .zone("eu-west-1a").weight(2)
 *     .payload(new Endpoint("v2"))
 *     .build();
 * me.buildUriSpec();   // "http://10.0.0.7:8080/api"
 * }</pre>
 *
 * @param <T> the payload type
 */
public final class ServiceInstance<T> {
    /** Metadata key of the instance's zone (availability zone, rack, data centre). */
    public static final String ZONE_KEY = "zone";
    /** Metadata key of the instance's weight for {@link WeightedStrategy}: a whole number, 0 or more. */
    public static final String WEIGHT_KEY = "weight";
    /** Weight of an instance whose metadata gives none (or gives one that is not a whole number, 0 or more). */
    public static final int DEFAULT_WEIGHT = 1;

    private final String name;
    private final String id;
    private final String address;
    private final Integer port;
    private final Integer sslPort;
    private final T payload;
    private final long registrationTimeUTC;
    private final ServiceType serviceType;
    private final String uriSpec;
    private final List<UriTemplate.Part> uriParts;
    private final boolean enabled;
    private final Map<String, String> metadata;
    private final int weight;
    private final Health health;

    ServiceInstance(ServiceInstanceBuilder<T> b) {
        this.name = b.name;
        this.id = b.id != null ? b.id : UUID.randomUUID().toString();
        this.address = b.addressSet ? b.address : LocalAddress.first();
        this.port = b.port;
        this.sslPort = b.sslPort;
        this.payload = b.payload;
        this.registrationTimeUTC = b.registrationTimeUTC != null ? b.registrationTimeUTC : System.currentTimeMillis();
        this.serviceType = b.serviceType;
        this.uriSpec = b.uriSpec;
        this.uriParts = b.uriSpec == null ? List.of() : UriTemplate.parse(b.uriSpec);
        this.enabled = b.enabled;
        this.metadata = Collections.unmodifiableMap(new TreeMap<>(b.metadata));
        this.weight = parseWeight(metadata.get(WEIGHT_KEY));
        this.health = Health.parse(metadata.get(Health.METADATA_KEY));
    }

    /**
     * {@return a new builder: id defaults to a random UUID, address to this host's first non-loopback IPv4
     * address}
     *
     * @param <T> the payload type
     */
    public static <T> ServiceInstanceBuilder<T> builder() {
        return new ServiceInstanceBuilder<>();
    }

    /** {@return a builder holding this instance's values, to make a changed copy} */
    public ServiceInstanceBuilder<T> toBuilder() {
        return new ServiceInstanceBuilder<T>().name(name).id(id).address(address).ports(port, sslPort).payload(payload)
            .serviceType(serviceType).uriSpec(uriSpec).enabled(enabled).registrationTimeUTC(registrationTimeUTC).metadata(metadata);
    }

    /** {@return the service's name} */
    public String name() {
        return name;
    }

    /** {@return this instance's id, unique within the service} */
    public String id() {
        return id;
    }

    /** {@return the address (host name or IP), or null if the registrant gave none} */
    public String address() {
        return address;
    }

    /** {@return the port, or null for none} */
    public Integer port() {
        return port;
    }

    /** {@return the TLS port, or null for none} */
    public Integer sslPort() {
        return sslPort;
    }

    /** {@return the payload, bound to the type the discovery was built for; null for none} */
    public T payload() {
        return payload;
    }

    /** {@return when the instance was built, in milliseconds since the epoch (UTC)} */
    public long registrationTimeUTC() {
        return registrationTimeUTC;
    }

    /** {@return how the instance's node lives: with the registrant's session, or beyond it} */
    public ServiceType serviceType() {
        return serviceType;
    }

    /** {@return the URI template, such as {@code "{scheme}://{address}:{port}"}, or null for none} */
    public String uriSpec() {
        return uriSpec;
    }

    /** {@return whether the registrant offers this instance; a {@link ServiceProvider} never returns a disabled one} */
    public boolean enabled() {
        return enabled;
    }

    /** {@return free-form string metadata (sorted by key); Curator ignores it} */
    public Map<String, String> metadata() {
        return metadata;
    }

    /** {@return the zone in the metadata, or null} */
    public String zone() {
        return metadata.get(ZONE_KEY);
    }

    /** {@return the weight in the metadata, {@link #DEFAULT_WEIGHT} when there is none or it is not a whole number 0 or more} */
    public int weight() {
        return weight;
    }

    /** {@return the health in the metadata: UP when there is none} */
    public Health health() {
        return health;
    }

    /** {@return whether a provider may hand this instance out: enabled and UP} */
    public boolean isAvailable() {
        return enabled && health == Health.UP;
    }

    // Curator's accessor names, for code moving from Curator: each returns what the short name returns.

    /**
     * Curator's name for {@link #name()}.
     *
     * @return what {@link #name()} returns
     */
    public String getName() {
        return name;
    }

    /**
     * Curator's name for {@link #id()}.
     *
     * @return what {@link #id()} returns
     */
    public String getId() {
        return id;
    }

    /**
     * Curator's name for {@link #address()}.
     *
     * @return what {@link #address()} returns
     */
    public String getAddress() {
        return address;
    }

    /**
     * Curator's name for {@link #port()}.
     *
     * @return what {@link #port()} returns
     */
    public Integer getPort() {
        return port;
    }

    /**
     * Curator's name for {@link #sslPort()}.
     *
     * @return what {@link #sslPort()} returns
     */
    public Integer getSslPort() {
        return sslPort;
    }

    /**
     * Curator's name for {@link #payload()}.
     *
     * @return what {@link #payload()} returns
     */
    public T getPayload() {
        return payload;
    }

    /**
     * Curator's name for {@link #registrationTimeUTC()}.
     *
     * @return what {@link #registrationTimeUTC()} returns
     */
    public long getRegistrationTimeUTC() {
        return registrationTimeUTC;
    }

    /**
     * Curator's name for {@link #serviceType()}.
     *
     * @return what {@link #serviceType()} returns
     */
    public ServiceType getServiceType() {
        return serviceType;
    }

    /**
     * Curator's name for {@link #enabled()}.
     *
     * @return what {@link #enabled()} returns
     */
    public boolean isEnabled() {
        return enabled;
    }

    /**
     * {@return the URI template with this instance's values filled in: {@code scheme} ("https" when there
     * is an SSL port, else "http"), {@code name}, {@code id}, {@code address}, {@code port},
     * {@code ssl-port}, {@code registration-time-utc}, {@code service-type} (lower case)} Empty
     * when there is no template; an unknown variable stays as {@code {variable}}.
     */
    public String buildUriSpec() {
        return buildUriSpec(Map.of());
    }

    /**
     * As {@link #buildUriSpec()}, with extra (or overriding) variables.
     *
     * @param variables more variables, or values that replace the instance's own
     * @return the filled-in template, empty when there is none
     */
    public String buildUriSpec(Map<String, ?> variables) {
        Objects.requireNonNull(variables, "variables");
        Map<String, Object> values = new HashMap<>();
        values.put("scheme", sslPort != null ? "https" : "http");
        values.put("name", name);
        values.put("id", id);
        values.put("address", address);
        values.put("port", port);
        values.put("ssl-port", sslPort);
        values.put("registration-time-utc", registrationTimeUTC);
        values.put("service-type", serviceType.name().toLowerCase(Locale.ROOT));
        values.putAll(variables);
        return UriTemplate.resolve(uriParts, values);
    }

    /**
     * {@link #buildUriSpec()} as a {@link URI}.
     *
     * @return the filled-in template as a URI
     * @throws IllegalStateException if there is no template, or it does not make a valid URI
     */
    public URI uri() {
        if (uriSpec == null) {
            throw new IllegalStateException("instance " + id + " of " + name + " has no uriSpec");
        }
        String built = buildUriSpec();
        try {
            return URI.create(built);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("uriSpec \"" + uriSpec + "\" of instance " + id + " makes \"" + built
                + "\", which is not a URI: " + e.getMessage(), e);
        }
    }

    List<UriTemplate.Part> uriParts() {
        return uriParts;
    }

    private static int parseWeight(String value) {
        if (value == null) {
            return DEFAULT_WEIGHT;
        }
        try {
            int w = Integer.parseInt(value.trim());
            return w >= 0 ? w : DEFAULT_WEIGHT;
        } catch (NumberFormatException e) {
            return DEFAULT_WEIGHT;
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ServiceInstance<?> that
            && name.equals(that.name) && id.equals(that.id) && Objects.equals(address, that.address)
            && Objects.equals(port, that.port) && Objects.equals(sslPort, that.sslPort)
            && Objects.equals(payload, that.payload) && registrationTimeUTC == that.registrationTimeUTC
            && serviceType == that.serviceType && Objects.equals(uriSpec, that.uriSpec) && enabled == that.enabled
            && metadata.equals(that.metadata);
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, id, address, port, sslPort, payload, registrationTimeUTC, serviceType, uriSpec, enabled, metadata);
    }

    @Override
    public String toString() {
        return "ServiceInstance{" + name + "/" + id + " " + address + (port != null ? ":" + port : "")
            + (sslPort != null ? " ssl:" + sslPort : "") + " " + serviceType + (enabled ? "" : " disabled")
            + (metadata.isEmpty() ? "" : " " + metadata) + (payload != null ? " payload=" + payload : "") + "}";
    }
}
