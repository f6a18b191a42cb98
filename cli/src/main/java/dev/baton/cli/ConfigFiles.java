package dev.baton.cli;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * The file formats of {@code baton config import|export}: a {@code .properties} file, or a JSON
 * object whose nested objects join their keys with {@code /}; and writing a file whole or not at
 * all. Bad input is a usage error ({@link CliExit}) whose message names what is wrong.
 */
final class ConfigFiles {
    private static final ObjectMapper JSON = new ObjectMapper();

    private ConfigFiles() {
    }

    /** Writes {@code text} to {@code file} whole or not at all: a failed export leaves no half-written file behind. */
    static void writeWhole(Path file, String text) {
        Path dir = file.toAbsolutePath().getParent();
        Path temp = null;
        try {
            temp = Files.createTempFile(dir, "." + file.getFileName() + ".", ".tmp");
            Files.writeString(temp, text, UTF_8);
            Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            String why = e instanceof java.nio.file.NoSuchFileException ? "no such directory " + dir
                : e instanceof java.nio.file.AccessDeniedException ? "permission denied" : e.getMessage();
            throw new CliExit(ExitCodes.USAGE, "cannot write " + file + ": " + why);
        } finally {
            if (temp != null) {
                try {
                    Files.deleteIfExists(temp);
                } catch (IOException ignored) {
                    // the move took it, or it was never written
                }
            }
        }
    }

    static String formatOf(String format, Path file) {
        String kind = format != null ? format : file != null && file.toString().endsWith(".json") ? "json"
            : file != null && file.toString().endsWith(".properties") ? "properties" : null;
        if (kind == null) {
            throw new CliExit(ExitCodes.USAGE, "cannot tell the format of " + file + ": name it .properties or .json, or give --format");
        }
        if (!kind.equals("json") && !kind.equals("properties")) {
            throw new CliExit(ExitCodes.USAGE, "--format must be properties or json, was '" + kind + "'");
        }
        return kind;
    }

    static Map<String, String> read(String text, String kind) throws IOException {
        Map<String, String> out = new TreeMap<>();
        if (kind.equals("properties")) {
            Properties p = new Properties();
            try {
                p.load(new StringReader(text));
            } catch (IllegalArgumentException e) {
                throw new CliExit(ExitCodes.USAGE, "not a .properties file: " + e.getMessage());
            }
            p.stringPropertyNames().forEach(k -> out.put(k, p.getProperty(k)));
            return out;
        }
        JsonNode root;
        try {
            root = JSON.readTree(text);
        } catch (JsonProcessingException e) {
            // Jackson's own message runs over several lines and names a redacted source: one line, with where
            var at = e.getLocation();
            throw new CliExit(ExitCodes.USAGE, "not JSON" + (at == null ? "" : " (line " + at.getLineNr() + ", column " + at.getColumnNr() + ")")
                + ": " + e.getOriginalMessage().lines().findFirst().orElse(""));
        }
        if (root == null || !root.isObject()) {
            throw new CliExit(ExitCodes.USAGE, "the JSON must be an object of keys");
        }
        flatten("", root, out);
        return out;
    }

    private static void flatten(String prefix, JsonNode node, Map<String, String> out) {
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            String key = prefix.isEmpty() ? field.getKey() : prefix + "/" + field.getKey();
            JsonNode value = field.getValue();
            if (value.isObject()) {
                flatten(key, value, out);
            } else {
                out.put(key, value.isTextual() ? value.asText() : value.toString());
            }
        }
    }

    static String write(Map<String, String> values, String kind) throws IOException {
        if (kind.equals("json")) {
            ObjectNode root = JSON.createObjectNode();
            values.forEach(root::put);
            return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n";
        }
        Properties p = new Properties();
        p.putAll(values);
        StringWriter w = new StringWriter();
        p.store(w, null);
        // Properties writes a date comment and no order: keep the sorted lines only
        List<String> lines = new ArrayList<>(w.toString().lines().filter(l -> !l.startsWith("#")).toList());
        lines.sort(null);
        return lines.isEmpty() ? "" : String.join("\n", lines) + "\n";
    }
}
