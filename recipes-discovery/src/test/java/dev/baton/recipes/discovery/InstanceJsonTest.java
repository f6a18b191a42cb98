package dev.baton.recipes.discovery;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.curator.x.discovery.UriSpec;
import org.apache.curator.x.discovery.details.JsonInstanceSerializer;
import org.junit.jupiter.api.Test;

/** The instance JSON without a server: Curator's serializer on the other side, and hostile data. */
class InstanceJsonTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private static <T> InstanceJson<T> baton(Class<T> payloadType) {
        return new InstanceJson<>(payloadType, ServiceDiscoveryBuilder.defaultMapper(), ServiceDiscoveryBuilder.DEFAULT_MAX_INSTANCE_BYTES);
    }

    private static ServiceInstance<Endpoint> sample() {
        return ServiceInstance.<Endpoint>builder().name("orders").id("i-1").address("10.0.0.7").port(8080).sslPort(8443)
            .payload(new Endpoint("eu-1", "v2")).registrationTimeUTC(1_700_000_000_000L).serviceType(ServiceType.DYNAMIC)
            .uriSpec("{scheme}://{address}:{ssl-port}/api").zone("eu-1").weight(3).build();
    }

    @Test
    void roundTripKeepsEveryField() {
        ServiceInstance<Endpoint> instance = sample().toBuilder().enabled(false).build();
        assertThat(baton(Endpoint.class).decode(baton(Endpoint.class).encode(instance))).isEqualTo(instance);
    }

    @Test
    void writesCuratorsFieldsAndShapes() throws Exception {
        JsonNode written = MAPPER.readTree(baton(Endpoint.class).encode(sample()));
        assertThat(written.get("name").asText()).isEqualTo("orders");
        assertThat(written.get("serviceType").asText()).isEqualTo("DYNAMIC");
        assertThat(written.get("enabled").asBoolean()).isTrue();
        assertThat(written.get("payload").get("@class").asText()).isEqualTo(Endpoint.class.getName());
        assertThat(written.get("uriSpec").get("parts").get(0).toString()).isEqualTo("{\"value\":\"scheme\",\"variable\":true}");
        assertThat(written.get("metadata").get("zone").asText()).isEqualTo("eu-1");
    }

    @Test
    void curatorReadsWhatBatonWrites() throws Exception {
        byte[] bytes = baton(Endpoint.class).encode(sample());
        for (JsonInstanceSerializer<Endpoint> curator : List.of(new JsonInstanceSerializer<>(Endpoint.class),
            new JsonInstanceSerializer<>(Endpoint.class, false))) {
            org.apache.curator.x.discovery.ServiceInstance<Endpoint> read = curator.deserialize(bytes);
            assertThat(read.getName()).isEqualTo("orders");
            assertThat(read.getId()).isEqualTo("i-1");
            assertThat(read.getAddress()).isEqualTo("10.0.0.7");
            assertThat(read.getPort()).isEqualTo(8080);
            assertThat(read.getSslPort()).isEqualTo(8443);
            assertThat(read.getPayload()).isEqualTo(new Endpoint("eu-1", "v2"));
            assertThat(read.getRegistrationTimeUTC()).isEqualTo(1_700_000_000_000L);
            assertThat(read.buildUriSpec()).isEqualTo("https://10.0.0.7:8443/api");
            assertThat(read.isEnabled()).isTrue();
        }
    }

    @Test
    void curatorReadsBatonPayloadsOfEveryShape() throws Exception {
        JsonInstanceSerializer<Object> curator = new JsonInstanceSerializer<>(Object.class, false);
        for (Object payload : List.of("text", 42, 42L, 1.5, true, List.of("a", "b"), Map.of("k", "v"), Endpoint.Kind.PRIMARY)) {
            byte[] bytes = baton(Object.class).encode(ServiceInstance.<Object>builder().name("s").id("i").payload(payload).build());
            assertThat(curator.deserialize(bytes).getPayload()).as("payload %s", payload).isEqualTo(payload);
        }
    }

    @Test
    void batonReadsWhatCuratorWrites() throws Exception {
        org.apache.curator.x.discovery.ServiceInstance<Endpoint> written = org.apache.curator.x.discovery.ServiceInstance.<Endpoint>builder()
            .name("orders").id("c-1").address("10.0.0.8").port(9090).payload(new Endpoint("eu-2", "v1"))
            .uriSpec(new UriSpec("{scheme}://{address}:{port}/x{[}y{]}")).serviceType(org.apache.curator.x.discovery.ServiceType.STATIC)
            .enabled(false).build();
        for (boolean compatible : new boolean[] {true, false}) {
            byte[] bytes = new JsonInstanceSerializer<>(Endpoint.class, compatible).serialize(written);
            ServiceInstance<Endpoint> read = baton(Endpoint.class).decode(bytes);
            assertThat(read.name()).isEqualTo("orders");
            assertThat(read.id()).isEqualTo("c-1");
            assertThat(read.address()).isEqualTo("10.0.0.8");
            assertThat(read.port()).isEqualTo(9090);
            assertThat(read.sslPort()).isNull();
            assertThat(read.payload()).isEqualTo(new Endpoint("eu-2", "v1"));
            assertThat(read.serviceType()).isEqualTo(ServiceType.STATIC);
            assertThat(read.registrationTimeUTC()).isEqualTo(written.getRegistrationTimeUTC());
            assertThat(read.buildUriSpec()).isEqualTo(written.buildUriSpec()).isEqualTo("http://10.0.0.8:9090/x{y}");
            // compatible mode (Curator's default) does not write "enabled": absent means enabled
            assertThat(read.enabled()).isEqualTo(compatible);
        }
    }

    @Test
    void batonReadsCuratorPayloadsOfEveryShape() throws Exception {
        for (Object payload : List.of("text", 42, 1.5, true, List.of("a", "b"), Map.of("k", "v"))) {
            org.apache.curator.x.discovery.ServiceInstance<Object> written = org.apache.curator.x.discovery.ServiceInstance.builder()
                .name("s").id("i").payload(payload).build();
            byte[] bytes = new JsonInstanceSerializer<>(Object.class).serialize(written);
            assertThat(baton(Object.class).decode(bytes).payload()).as("payload %s", payload).isEqualTo(payload);
        }
        byte[] longPayload = new JsonInstanceSerializer<>(Long.class).serialize(
            org.apache.curator.x.discovery.ServiceInstance.<Long>builder().name("s").id("i").payload(7L).build());
        assertThat(baton(Long.class).decode(longPayload).payload()).isEqualTo(7L);
        // the declared type decides, never the class name Curator wrote: as Object, a Long reads as plain JSON (an Integer)
        assertThat(baton(Object.class).decode(longPayload).payload()).isEqualTo(7);
    }

    @Test
    void classNamesInTheDataAreNeitherLoadedNorInstantiated() throws Exception {
        String gadget = "dev.baton.recipes.discovery.Gadget";
        List<String> hostile = List.of(
            "{\"name\":\"s\",\"id\":\"i\",\"payload\":{\"@class\":\"" + gadget + "\",\"command\":\"rm -rf /\"}}",
            "{\"name\":\"s\",\"id\":\"i\",\"payload\":[\"" + gadget + "\",{\"command\":\"rm -rf /\"}]}",
            "{\"name\":\"s\",\"id\":\"i\",\"payload\":{\"@class\":\"java.util.HashMap\",\"inner\":{\"@class\":\"" + gadget + "\"}}}");
        // Jackson resolves class names through the context class loader: record what is asked of it
        RecordingLoader recorder = new RecordingLoader(getClass().getClassLoader());
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(recorder);
        try {
            for (String json : hostile) {
                Object asObject = baton(Object.class).decode(json.getBytes(UTF_8)).payload();
                assertThat(asObject).isInstanceOf(Map.class);
                assertThat(((Map<?, ?>) asObject).containsKey("@class")).isFalse();
                assertThat(baton(Endpoint.class).decode(json.getBytes(UTF_8)).payload()).isInstanceOf(Endpoint.class);
            }
            assertThat(recorder.requested).as("class names Baton asked to load").doesNotContain(gadget);
            assertThat(Tripwire.gadgetInitialized).as("Baton initialised the class named in @class").isFalse();
            assertThat(Tripwire.gadgetConstructed).as("Baton constructed the class named in @class").isFalse();

            // the same data through Curator's reader does load and run the gadget: the checks above can fail
            new JsonInstanceSerializer<>(Object.class).deserialize(hostile.get(0).getBytes(UTF_8));
            assertThat(recorder.requested).contains(gadget);
            assertThat(Tripwire.gadgetConstructed).isTrue();
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    /** Delegates everything, remembering each class name it is asked for. */
    private static final class RecordingLoader extends ClassLoader {
        final Set<String> requested = ConcurrentHashMap.newKeySet();

        RecordingLoader(ClassLoader parent) {
            super(parent);
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            requested.add(name);
            return super.loadClass(name, resolve);
        }
    }

    @Test
    void garbageIsRejectedWithAReason() {
        InstanceJson<Endpoint> json = baton(Endpoint.class);
        Map<String, String> cases = Map.ofEntries(
            Map.entry("", "no data"),
            Map.entry("not json at all", "not JSON"),
            Map.entry("{\"name\":\"s\",\"id\":\"i\"", "not JSON"),
            Map.entry("[1,2]", "not a JSON object"),
            Map.entry("{\"id\":\"i\"}", "no \"name\""),
            Map.entry("{\"name\":\"s\"}", "no \"id\""),
            Map.entry("{\"name\":\"s\",\"id\":\"i\",\"port\":\"80\"}", "\"port\" is not a whole number"),
            Map.entry("{\"name\":\"s\",\"id\":\"i\",\"port\":99999}", "port must be 0 to 65535"),
            Map.entry("{\"name\":\"s\",\"id\":\"i\",\"serviceType\":\"EVIL\"}", "serviceType"),
            Map.entry("{\"name\":\"s\",\"id\":\"i\",\"enabled\":\"yes\"}", "\"enabled\" is not a boolean"),
            Map.entry("{\"name\":\"s\",\"id\":\"i\",\"uriSpec\":{\"parts\":7}}", "uriSpec"),
            Map.entry("{\"name\":\"s\",\"id\":\"i\",\"uriSpec\":\"{open\"}", "not closed"),
            Map.entry("{\"name\":\"a/b\",\"id\":\"i\"}", "'a/b'"),
            Map.entry("{\"name\":\"s\",\"id\":\"i\",\"payload\":[\"x\",\"y\",\"z\"]}", "payload does not bind"),
            Map.entry("{\"name\":\"s\",\"id\":\"i\",\"metadata\":[]}", "\"metadata\" is not an object"));
        cases.forEach((data, reason) -> assertThatThrownBy(() -> json.decode(data.getBytes(UTF_8)))
            .as("data %s", data).isInstanceOf(IllegalArgumentException.class).hasMessageContaining(reason));
        assertThat(json.decodeOrWarn("/s/i", "garbage".getBytes(UTF_8))).isNull();
    }

    @Test
    void oversizedDataIsRejectedBeforeParsing() {
        byte[] huge = ("{\"name\":\"s\",\"id\":\"i\",\"payload\":\"" + "x".repeat(200_000) + "\"}").getBytes(UTF_8);
        assertThatThrownBy(() -> baton(String.class).decode(huge)).hasMessageContaining("more than maxInstanceBytes (65536)");
    }

    @Test
    void oversizedInstanceIsRefusedWhenWritten() {
        ServiceInstance<String> big = ServiceInstance.<String>builder().name("s").id("i").payload("x".repeat(70_000)).build();
        assertThatThrownBy(() -> baton(String.class).encode(big)).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("more than maxInstanceBytes (65536)");
    }

    @Test
    void unknownFieldsAndMetadataFromNewerWritersAreTolerated() {
        String json = "{\"name\":\"s\",\"id\":\"i\",\"future\":{\"x\":1},\"metadata\":{\"zone\":\"z\",\"n\":5,\"o\":{}},"
            + "\"payload\":{\"@class\":\"whatever\",\"zone\":\"z\",\"added\":true}}";
        ServiceInstance<Endpoint> read = baton(Endpoint.class).decode(json.getBytes(UTF_8));
        assertThat(read.payload()).isEqualTo(new Endpoint("z", null));
        assertThat(read.metadata()).containsOnly(Map.entry("zone", "z"), Map.entry("n", "5"));
    }
}
