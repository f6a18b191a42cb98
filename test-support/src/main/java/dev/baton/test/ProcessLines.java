package dev.baton.test;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The line protocol between a {@link ClientProcess} and its child's {@link ParentChannel}: one
 * line per message, words separated by single spaces, UTF-8.
 *
 * <pre>
 * child to parent, a report:   @baton &lt;micros&gt; &lt;kind&gt; [field ...]
 * child to parent, a request:  @baton? &lt;id&gt; &lt;micros&gt; &lt;kind&gt; [field ...]
 * parent to child, an answer:  @baton! &lt;id&gt; &lt;answer, the rest of the line&gt;
 * parent to child, a failure:  @baton!! &lt;id&gt; &lt;why, the rest of the line&gt;
 * </pre>
 *
 * {@code micros} is the wall-clock time in microseconds since the epoch. Lines without a prefix
 * are not protocol (a JVM warning, a library printing to standard output) and are only logged.
 */
final class ProcessLines {
    static final String REPORT = "@baton";
    static final String REQUEST = "@baton?";
    static final String ANSWER = "@baton!";
    static final String FAILURE = "@baton!!";
    private static final Pattern WORD = Pattern.compile("\\S+");

    private ProcessLines() {
    }

    static long micros(Instant time) {
        return Math.addExact(Math.multiplyExact(time.getEpochSecond(), 1_000_000L), time.getNano() / 1_000);
    }

    static Instant instant(long micros) {
        return Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1_000L);
    }

    /** {@code kind} and the fields as protocol words; each must be one word (no white space, not empty). */
    static String words(String kind, Object... fields) {
        StringBuilder line = new StringBuilder(word(kind));
        for (Object field : fields) {
            line.append(' ').append(word(String.valueOf(field)));
        }
        return line.toString();
    }

    private static String word(String s) {
        if (!WORD.matcher(s).matches()) {
            throw new IllegalArgumentException("a client-process message is made of single words (no spaces, not empty); got \""
                + s + "\"");
        }
        return s;
    }

    /** A message line split into its words after the prefix (and request id). */
    static List<String> split(String rest) {
        return Arrays.asList(rest.split(" "));
    }
}
