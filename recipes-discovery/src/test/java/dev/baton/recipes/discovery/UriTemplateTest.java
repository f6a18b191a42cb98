package dev.baton.recipes.discovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.recipes.discovery.UriTemplate.Part;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class UriTemplateTest {
    @Test
    void parsesLiteralsAndVariables() {
        assertThat(UriTemplate.parse("{scheme}://{address}:{port}/api")).containsExactly(
            new Part("scheme", true), new Part("://", false), new Part("address", true), new Part(":", false),
            new Part("port", true), new Part("/api", false));
    }

    @Test
    void variableNamesAreTrimmed() {
        assertThat(UriTemplate.parse("{ port }")).containsExactly(new Part("port", true));
    }

    @Test
    void formatIsTheInverseOfParse() {
        String template = "{scheme}://{address}:{port}/x{[}y{]}";
        assertThat(UriTemplate.format(UriTemplate.parse(template))).isEqualTo(template);
    }

    @Test
    void literalBracesFromCuratorPartsAreEscaped() {
        assertThat(UriTemplate.format(List.of(new Part("/a{b}", false)))).isEqualTo("/a{[}b{]}");
    }

    @Test
    void resolvesKnownVariablesAndKeepsUnknownOnes() {
        List<Part> parts = UriTemplate.parse("{scheme}://{host}:{port}/{[}{nope}{]}");
        assertThat(UriTemplate.resolve(parts, Map.of("scheme", "http", "host", "h", "port", 80)))
            .isEqualTo("http://h:80/{{nope}}");
    }

    @Test
    void rejectsMalformedTemplatesNamingTheProblem() {
        assertThatThrownBy(() -> UriTemplate.parse("{a{b}}")).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("'{' inside a variable");
        assertThatThrownBy(() -> UriTemplate.parse("a}")).hasMessageContaining("'}' without a '{'");
        assertThatThrownBy(() -> UriTemplate.parse("{port")).hasMessageContaining("not closed");
        assertThatThrownBy(() -> UriTemplate.parse("x{ }")).hasMessageContaining("empty variable");
    }
}
