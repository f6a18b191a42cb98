package dev.baton.spring;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * What an IDE reads to complete {@code baton.*} keys: the configuration metadata the annotation
 * processor writes into the jar. Every key has a description, the keys whose default lives in
 * {@code BatonClient.Builder} show it, the health indicator's switch completes like Boot's own, and
 * docs/spring.md's table lists exactly the keys there are.
 */
class ConfigurationMetadataTest {
    private static final String METADATA = "META-INF/spring-configuration-metadata.json";
    /** A row of the guide's property table: {@code | `baton.x` | default | meaning |}. */
    private static final Pattern ROW = Pattern.compile("^\\| `(baton\\.[a-z.-]+)(\\.\\*)?` \\|", Pattern.MULTILINE);

    @Test
    void everyKeyHasADescriptionAndTheBuildersDefaultsAreShown() throws IOException {
        Map<String, JsonNode> keys = properties();
        assertThat(keys).as("keys in %s", METADATA).containsKeys("baton.connect-string", "baton.embedded.enabled",
            "baton.lock-registry.root", "baton.leadership.enabled", "baton.discovery.register", "baton.retry.max-retries");
        keys.forEach((name, property) ->
            assertThat(property.path("description").asText()).as("description of %s", name).isNotBlank());
        assertThat(keys.get("baton.session-timeout").path("defaultValue").asText()).isEqualTo("30s");
        assertThat(keys.get("baton.connection-timeout").path("defaultValue").asText()).isEqualTo("15s");
    }

    @Test
    void theHealthIndicatorsSwitchCompletesAsBootsOwnDo() throws IOException {
        JsonNode health = properties().get("management.health.baton.enabled");
        assertThat(health).as("management.health.baton.enabled in the metadata").isNotNull();
        assertThat(health.path("type").asText()).isEqualTo("java.lang.Boolean");
        assertThat(health.path("defaultValue").asBoolean(false)).isTrue();
    }

    @Test
    void theGuidesTableListsEveryKeyAndNoOther() throws IOException {
        TreeSet<String> documented = new TreeSet<>();
        Matcher m = ROW.matcher(Files.readString(Path.of("..", "docs", "spring.md")));
        while (m.find()) {
            documented.add(m.group(1));
        }
        TreeSet<String> real = new TreeSet<>(properties().keySet());
        real.removeIf(name -> !name.startsWith("baton."));
        assertThat(documented).as("the baton.* keys of docs/spring.md's table").isEqualTo(real);
    }

    private static Map<String, JsonNode> properties() throws IOException {
        try (InputStream in = ConfigurationMetadataTest.class.getClassLoader().getResourceAsStream(METADATA)) {
            assertThat(in).as("%s on the class path (written by spring-boot-configuration-processor)", METADATA).isNotNull();
            Map<String, JsonNode> byName = new TreeMap<>();
            for (JsonNode property : new ObjectMapper().readTree(in).path("properties")) {
                byName.put(property.path("name").asText(), property);
            }
            return byName;
        }
    }
}
