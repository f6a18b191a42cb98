package dev.baton.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * How the operator commands ({@code locks}, {@code leaders}, {@code sessions}, {@code queues},
 * {@code doctor}) print: an aligned table for a person, or with {@code --json} one JSON document
 * for a script. The JSON is built from the same records the table is, so both always say the same.
 */
final class Output {
    /** JSON of records, indented so that a person can read it too; field names are the records' components. */
    private static final ObjectMapper JSON = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

    @Option(names = "--json", description = "Print one JSON document (for scripts) instead of the table.")
    boolean json;

    /** Writes {@code document} as JSON and a line break. */
    static void json(PrintWriter out, Object document) {
        try {
            out.println(JSON.writeValueAsString(document));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + document.getClass().getSimpleName() + " as JSON", e);
        }
    }

    /** {@code 0x}-prefixed hex, as ZooKeeper's own tools print session ids. */
    static String hex(long id) {
        return "0x" + Long.toHexString(id);
    }

    /** An age for a person: 850ms, 12s, 4m, 3h, 2d. */
    static String age(long millis) {
        if (millis < 0) {
            return "0ms"; // the server's clock is a little ahead of ours
        }
        if (millis < 120_000) {
            return Durations.format(Duration.ofMillis(millis));
        }
        if (millis < 3 * 3_600_000L) {
            return millis / 60_000 + "m";
        }
        if (millis < 3 * 86_400_000L) {
            return millis / 3_600_000 + "h";
        }
        return millis / 86_400_000 + "d";
    }

    /** Text for one table cell: no line breaks, at most {@code max} characters. */
    static String cell(String text, int max) {
        String flat = text.replace('\n', ' ').replace('\r', ' ');
        return flat.length() > max ? flat.substring(0, max - 3) + "..." : flat;
    }

    /** Columns aligned on the widest cell; the last column is not padded. */
    static final class Table {
        private final List<String[]> rows = new ArrayList<>();

        Table(String... header) {
            rows.add(header);
        }

        Table row(Object... cells) {
            String[] row = new String[cells.length];
            for (int i = 0; i < cells.length; i++) {
                row[i] = cells[i] == null ? "-" : String.valueOf(cells[i]);
            }
            rows.add(row);
            return this;
        }

        boolean isEmpty() {
            return rows.size() == 1;
        }

        void print(PrintWriter out, String indent) {
            int columns = rows.stream().mapToInt(r -> r.length).max().orElse(0);
            int[] width = new int[columns];
            for (String[] row : rows) {
                for (int i = 0; i < row.length; i++) {
                    width[i] = Math.max(width[i], row[i].length());
                }
            }
            for (String[] row : rows) {
                StringBuilder line = new StringBuilder(indent);
                for (int i = 0; i < row.length; i++) {
                    line.append(i == row.length - 1 ? row[i] : String.format("%-" + width[i] + "s  ", row[i]));
                }
                out.println(line.toString().stripTrailing());
            }
        }
    }
}
