package dev.baton.recipes.discovery;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * URI templates such as {@code "{scheme}://{address}:{port}/api"}: literal text with variables in
 * braces. Curator stores a template as a list of parts ({@code {"value":"port","variable":true}});
 * Baton keeps the template string and converts. A literal brace is written {@code {[}} or {@code {]}}
 * (Curator's convention). A variable the values do not name stays in the output as {@code {name}}.
 */
final class UriTemplate {
    /** Curator's variable for a literal '{'. */
    public static final String OPEN_BRACE = "[";
    /** Curator's variable for a literal '}'. */
    public static final String CLOSE_BRACE = "]";

    private UriTemplate() {
    }

    /** One piece of a template: literal text, or the name of a variable. */
    public record Part(String value, boolean variable) {
        public Part {
            Objects.requireNonNull(value, "value");
        }
    }

    /**
     * Splits {@code template} into parts.
     *
     * @throws IllegalArgumentException naming the template and the problem: a brace inside a
     *     variable, a '}' with no '{', an unclosed or empty variable
     */
    public static List<Part> parse(String template) {
        Objects.requireNonNull(template, "uriSpec");
        List<Part> parts = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        boolean inVariable = false;
        for (int i = 0; i < template.length(); i++) {
            char c = template.charAt(i);
            if (c == '{') {
                if (inVariable) {
                    throw bad(template, "'{' inside a variable at index " + i);
                }
                addLiteral(parts, current);
                inVariable = true;
            } else if (c == '}') {
                if (!inVariable) {
                    throw bad(template, "'}' without a '{' at index " + i);
                }
                String name = current.toString().trim();
                if (name.isEmpty()) {
                    throw bad(template, "empty variable at index " + i);
                }
                parts.add(new Part(name, true));
                current.setLength(0);
                inVariable = false;
            } else {
                current.append(c);
            }
        }
        if (inVariable) {
            throw bad(template, "the last variable is not closed with '}'");
        }
        addLiteral(parts, current);
        return List.copyOf(parts);
    }

    /** The template string of {@code parts} (literal braces become {@code {[}} and {@code {]}}). */
    public static String format(List<Part> parts) {
        StringBuilder s = new StringBuilder();
        for (Part part : parts) {
            if (part.variable()) {
                s.append('{').append(part.value()).append('}');
            } else {
                for (int i = 0; i < part.value().length(); i++) {
                    char c = part.value().charAt(i);
                    s.append(c == '{' ? "{" + OPEN_BRACE + "}" : c == '}' ? "{" + CLOSE_BRACE + "}" : String.valueOf(c));
                }
            }
        }
        return s.toString();
    }

    /** Fills in the variables from {@code values}; an unknown variable stays as {@code {name}}. */
    public static String resolve(List<Part> parts, Map<String, ?> values) {
        StringBuilder s = new StringBuilder();
        for (Part part : parts) {
            if (!part.variable()) {
                s.append(part.value());
            } else if (OPEN_BRACE.equals(part.value())) {
                s.append('{');
            } else if (CLOSE_BRACE.equals(part.value())) {
                s.append('}');
            } else {
                Object value = values.get(part.value());
                s.append(value == null ? "{" + part.value() + "}" : value.toString());
            }
        }
        return s.toString();
    }

    private static void addLiteral(List<Part> parts, StringBuilder current) {
        if (current.length() > 0) {
            parts.add(new Part(current.toString(), false));
            current.setLength(0);
        }
    }

    private static IllegalArgumentException bad(String template, String what) {
        return new IllegalArgumentException("uriSpec must be a template like \"{scheme}://{address}:{port}\", was \""
            + template + "\": " + what);
    }
}
