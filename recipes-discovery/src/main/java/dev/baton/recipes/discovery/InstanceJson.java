package dev.baton.recipes.discovery;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The instance JSON, in Curator 5.9's shape both ways, with the payload always bound to the
 * declared type.
 *
 * <p>Curator writes its payload with Jackson's class-name type information: an object payload
 * gets an {@code "@class"} property, any other payload except a string, boolean, int or double
 * is wrapped as {@code ["class.Name", value]}. Baton writes the same, so Curator can read it. On
 * reading, Baton drops the {@code "@class"} property or unwraps the pair <em>without looking at
 * the class name</em> and binds what remains to the declared payload type, with an ObjectMapper
 * that has no default typing: no class named by the data is ever loaded or instantiated.
 *
 * <p>Data that is too large, is not JSON, lacks {@code name} or {@code id}, has a field of the
 * wrong kind, or whose payload does not bind to the declared type is rejected with a reason;
 * caches and queries skip such a node with a warning.
 */
final class InstanceJson<T> {
    private static final Logger LOG = LoggerFactory.getLogger(InstanceJson.class);
    private static final String TYPE_PROPERTY = "@class";
    private static final Pattern CLASS_NAME = Pattern.compile("\\[*L?[A-Za-z_$][\\w$]*(\\.[A-Za-z_$][\\w$]*)*;?");

    private final Class<T> payloadType;
    private final ObjectMapper mapper;
    private final int maxBytes;

    InstanceJson(Class<T> payloadType, ObjectMapper mapper, int maxBytes) {
        this.payloadType = payloadType;
        this.mapper = mapper;
        this.maxBytes = maxBytes;
    }

    int maxBytes() {
        return maxBytes;
    }

    /**
     * The JSON of {@code instance}.
     *
     * @throws IllegalArgumentException if the payload cannot be written as JSON, or the JSON is
     *     larger than the limit
     */
    byte[] encode(ServiceInstance<T> instance) {
        ObjectNode root = mapper.createObjectNode();
        root.put("name", instance.name());
        root.put("id", instance.id());
        root.put("address", instance.address());
        root.put("port", instance.port());
        root.put("sslPort", instance.sslPort());
        root.set("payload", encodePayload(instance.payload()));
        root.put("registrationTimeUTC", instance.registrationTimeUTC());
        root.put("serviceType", instance.serviceType().name());
        root.set("uriSpec", encodeUriSpec(instance.uriParts(), instance.uriSpec() != null));
        root.put("enabled", instance.enabled());
        if (!instance.metadata().isEmpty()) {
            ObjectNode metadata = root.putObject("metadata");
            instance.metadata().forEach(metadata::put);
        }
        byte[] bytes;
        try {
            bytes = mapper.writeValueAsBytes(root);
        } catch (JacksonException e) {
            throw new IllegalArgumentException("instance " + instance.id() + " of " + instance.name() + " cannot be written as JSON: "
                + e.getOriginalMessage(), e);
        }
        if (bytes.length > maxBytes) {
            throw new IllegalArgumentException("instance " + instance.id() + " of " + instance.name() + " is " + bytes.length
                + " bytes as JSON, more than maxInstanceBytes (" + maxBytes + ")");
        }
        return bytes;
    }

    /** The instance stored at {@code path}, or null (with a warning) if its data is not a readable instance. */
    ServiceInstance<T> decodeOrWarn(String path, byte[] data) {
        try {
            return decode(data);
        } catch (IllegalArgumentException e) {
            LOG.warn("discovery: skipping {}: {}", path, e.getMessage());
            return null;
        }
    }

    /**
     * Reads an instance.
     *
     * @throws IllegalArgumentException saying why the data is not a readable instance
     */
    ServiceInstance<T> decode(byte[] data) {
        if (data == null || data.length == 0) {
            throw new IllegalArgumentException("no data");
        }
        if (data.length > maxBytes) {
            throw new IllegalArgumentException(data.length + " bytes, more than maxInstanceBytes (" + maxBytes + ")");
        }
        JsonNode root;
        try {
            root = mapper.readTree(data);
        } catch (JacksonException e) {
            throw new IllegalArgumentException("not JSON: " + e.getOriginalMessage());
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException("unreadable: " + e.getMessage());
        }
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException("not a JSON object");
        }
        ServiceInstanceBuilder<T> b = ServiceInstance.<T>builder()
            .name(text(root, "name", true))
            .id(text(root, "id", true))
            .address(text(root, "address", false))
            .ports(integer(root, "port"), integer(root, "sslPort"))
            .payload(decodePayload(root.get("payload")))
            .registrationTimeUTC(registrationTime(root.get("registrationTimeUTC")))
            .serviceType(serviceType(root.get("serviceType")))
            .uriSpec(decodeUriSpec(root.get("uriSpec")))
            .enabled(enabled(root.get("enabled")))
            .metadata(metadata(root.get("metadata")));
        return b.build();
    }

    // ---- payload ----

    private JsonNode encodePayload(Object payload) {
        if (payload == null) {
            return NullNode.getInstance();
        }
        JsonNode tree;
        try {
            tree = mapper.valueToTree(payload);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("payload of type " + payload.getClass().getName() + " cannot be written as JSON: "
                + e.getMessage(), e);
        }
        // Jackson's "natural" types carry no type information (Curator writes them bare)
        if (payload instanceof String || payload instanceof Boolean || payload instanceof Integer || payload instanceof Double) {
            return tree;
        }
        String typeId = typeIdOf(payload);
        if (tree.isObject()) {
            ObjectNode typed = mapper.createObjectNode();
            typed.put(TYPE_PROPERTY, typeId);
            tree.properties().forEach(e -> {
                if (!e.getKey().equals(TYPE_PROPERTY)) {
                    typed.set(e.getKey(), e.getValue());
                }
            });
            return typed;
        }
        ArrayNode wrapped = mapper.createArrayNode();
        wrapped.add(typeId);
        wrapped.add(tree);
        return wrapped;
    }

    /** The class name a Curator reader should instantiate: a public, constructible one for the JDK's hidden collection classes. */
    private static String typeIdOf(Object payload) {
        if (payload instanceof Enum<?> e) {
            return e.getDeclaringClass().getName();
        }
        String name = payload.getClass().getName();
        if (name.startsWith("java.util.") && name.indexOf('$') >= 0) {
            if (payload instanceof List<?>) {
                return "java.util.ArrayList";
            }
            if (payload instanceof Set<?>) {
                return "java.util.LinkedHashSet";
            }
            if (payload instanceof Map<?, ?>) {
                return "java.util.LinkedHashMap";
            }
        }
        return name;
    }

    private T decodePayload(JsonNode node) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return null;
        }
        JsonNode value = node;
        if (node.isObject() && node.has(TYPE_PROPERTY)) {
            ObjectNode untyped = mapper.createObjectNode();
            node.properties().forEach(e -> {
                if (!e.getKey().equals(TYPE_PROPERTY)) {
                    untyped.set(e.getKey(), e.getValue());
                }
            });
            value = untyped;
        } else if (isTypeWrapper(node)) {
            value = node.get(1);
        }
        try {
            return mapper.treeToValue(value, payloadType);
        } catch (JacksonException | IllegalArgumentException e) {
            String why = e instanceof JacksonException je ? je.getOriginalMessage() : e.getMessage();
            throw new IllegalArgumentException("payload does not bind to " + payloadType.getName() + ": " + why);
        }
    }

    /** Whether {@code node} is Curator's {@code ["class.Name", value]} wrapping (only the shape is looked at). */
    private boolean isTypeWrapper(JsonNode node) {
        if (!node.isArray() || node.size() != 2 || !node.get(0).isTextual() || !CLASS_NAME.matcher(node.get(0).asText()).matches()) {
            return false;
        }
        boolean containerType = payloadType.isArray() || Collection.class.isAssignableFrom(payloadType);
        return !containerType || node.get(1).isArray();
    }

    // ---- uriSpec: Curator stores {"parts":[{"value":..,"variable":..}, ...]} ----

    private JsonNode encodeUriSpec(List<UriTemplate.Part> parts, boolean present) {
        if (!present) {
            return NullNode.getInstance();
        }
        ObjectNode spec = mapper.createObjectNode();
        ArrayNode array = spec.putArray("parts");
        for (UriTemplate.Part part : parts) {
            array.addObject().put("value", part.value()).put("variable", part.variable());
        }
        return spec;
    }

    private static String decodeUriSpec(JsonNode node) {
        if (node == null || node.isNull()) {
            return null;
        }
        if (node.isTextual()) {
            return node.asText();
        }
        JsonNode parts = node.get("parts");
        if (!node.isObject() || parts == null || !parts.isArray()) {
            throw new IllegalArgumentException("uriSpec is neither a template string nor {\"parts\": [...]}");
        }
        List<UriTemplate.Part> list = new ArrayList<>();
        for (JsonNode part : parts) {
            JsonNode value = part.get("value");
            JsonNode variable = part.get("variable");
            if (value == null || !value.isTextual() || (variable != null && !variable.isBoolean())) {
                throw new IllegalArgumentException("uriSpec part " + part + " is not {\"value\": text, \"variable\": boolean}");
            }
            list.add(new UriTemplate.Part(value.asText(), variable != null && variable.asBoolean()));
        }
        return UriTemplate.format(list);
    }

    // ---- plain fields ----

    private static String text(JsonNode root, String field, boolean required) {
        JsonNode node = root.get(field);
        if (node == null || node.isNull()) {
            if (required) {
                throw new IllegalArgumentException("no \"" + field + "\"");
            }
            return null;
        }
        if (!node.isTextual()) {
            throw new IllegalArgumentException("\"" + field + "\" is not a string");
        }
        return node.asText();
    }

    private static Integer integer(JsonNode root, String field) {
        JsonNode node = root.get(field);
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isInt()) {
            throw new IllegalArgumentException("\"" + field + "\" is not a whole number");
        }
        return node.intValue();
    }

    private static long registrationTime(JsonNode node) {
        if (node == null || node.isNull()) {
            return 0;
        }
        if (!node.canConvertToLong() || !node.isIntegralNumber() || node.longValue() < 0) {
            throw new IllegalArgumentException("\"registrationTimeUTC\" is not a time in milliseconds");
        }
        return node.longValue();
    }

    private static ServiceType serviceType(JsonNode node) {
        if (node == null || node.isNull()) {
            return ServiceType.DYNAMIC;
        }
        try {
            return ServiceType.valueOf(node.asText());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("\"serviceType\" " + node + " is not one of DYNAMIC, STATIC, PERMANENT, DYNAMIC_SEQUENTIAL");
        }
    }

    private static boolean enabled(JsonNode node) {
        if (node == null || node.isNull()) {
            return true;
        }
        if (!node.isBoolean()) {
            throw new IllegalArgumentException("\"enabled\" is not a boolean");
        }
        return node.booleanValue();
    }

    private static Map<String, String> metadata(JsonNode node) {
        if (node == null || node.isNull()) {
            return Map.of();
        }
        if (!node.isObject()) {
            throw new IllegalArgumentException("\"metadata\" is not an object");
        }
        Map<String, String> metadata = new java.util.LinkedHashMap<>();
        node.properties().forEach(e -> {
            if (!e.getKey().isEmpty() && e.getValue().isValueNode() && !e.getValue().isNull()) {
                metadata.put(e.getKey(), e.getValue().asText());
            }
        });
        return metadata;
    }
}
