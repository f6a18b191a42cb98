package dev.baton.spring;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.framework.BatonClient;
import dev.baton.test.ConnectString;
import dev.baton.test.EnsembleTest;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

/**
 * What a web service with the actuator really answers on {@code /actuator/health}: a whole Boot
 * application (every auto-configuration of the class path, the starter's found through its
 * {@code AutoConfiguration.imports}, Tomcat on a free port), asked over HTTP. The JSON sample of
 * docs/spring.md must have the same shape as that answer.
 */
@EnsembleTest
class ActuatorHealthOverHttpTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The JSON block that follows the sentence introducing it in the guide. */
    private static final Pattern DOC_SAMPLE = Pattern.compile(
        "`/actuator/health` shows:\\s*```json\\n(.*?)```", Pattern.DOTALL);

    /** A web service using the starter; no component scan, so the other tests' beans stay out. */
    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    static class WebService {
    }

    @Test
    void theHealthEndpointShowsTheClientAsTheGuideSays(@ConnectString String connect) throws Exception {
        try (ConfigurableApplicationContext app = new SpringApplicationBuilder(WebService.class)
                .properties("server.port=0", "spring.main.banner-mode=off", "spring.application.name=billing",
                    "baton.connect-string=" + connect, "baton.startup-timeout=20s",
                    "management.endpoint.health.show-details=always")
                .run()) {
            int port = ((WebServerApplicationContext) app).getWebServer().getPort();
            BatonClient client = app.getBean(BatonClient.class);
            HttpResponse<String> response = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/actuator/health")).build(),
                HttpResponse.BodyHandlers.ofString());

            assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
            JsonNode real = JSON.readTree(response.body());
            System.out.println("GET /actuator/health: " + JSON.writerWithDefaultPrettyPrinter().writeValueAsString(real));
            JsonNode baton = real.path("components").path("baton");
            assertThat(baton.path("status").asText()).isEqualTo("UP");
            JsonNode details = baton.path("details");
            assertThat(details.path("state").asText()).isEqualTo("CONNECTED");
            assertThat(details.path("sessionId").asText()).isEqualTo("0x" + Long.toHexString(client.sessionId()));
            assertThat(details.path("negotiatedSessionTimeout").asText()).isEqualTo(client.negotiatedSessionTimeout().toString());
            assertThat(details.path("server").asText()).as("host/ip:port, as ZooKeeper names it").matches("[^/]*/[0-9.]+:\\d+");
            assertThat(details.path("sinceLastContact").asText()).as("an ISO-8601 duration").matches("PT[0-9.]+S");
            assertThat(details.path("retriesLastMinute").isInt()).isTrue();
            assertThat(details.path("reason").asText()).isEqualTo("connected to the quorum with a live session");

            JsonNode documented = JSON.readTree(docSample());
            assertThat(fieldPaths(documented)).as("the fields of the guide's sample").isEqualTo(fieldPaths(real));
            JsonNode documentedDetails = documented.path("components").path("baton").path("details");
            for (String field : new String[] {"state", "reason", "retriesLastMinute"}) {
                assertThat(documentedDetails.path(field)).as("the guide's %s", field).isEqualTo(details.path(field));
            }
            assertThat(documentedDetails.path("sessionId").asText()).matches("0x[0-9a-f]+");
            assertThat(documentedDetails.path("server").asText()).matches("[^/]*/[0-9.]+:\\d+");
            assertThat(documentedDetails.path("negotiatedSessionTimeout").asText()).matches("PT[0-9.]+S");
        }
    }

    private static String docSample() throws IOException {
        String guide = Files.readString(Path.of("..", "docs", "spring.md"));
        Matcher m = DOC_SAMPLE.matcher(guide);
        assertThat(m.find()).as("docs/spring.md has a JSON sample after '`/actuator/health` shows:'").isTrue();
        return m.group(1);
    }

    /** Every field of {@code node} as a dotted path ({@code components.baton.details.state}). */
    private static TreeSet<String> fieldPaths(JsonNode node) {
        TreeSet<String> paths = new TreeSet<>();
        collect(node, "", paths);
        return paths;
    }

    private static void collect(JsonNode node, String prefix, TreeSet<String> paths) {
        Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> field = fields.next();
            String path = prefix + field.getKey();
            paths.add(path);
            collect(field.getValue(), path + ".", paths);
        }
    }
}
