package dev.baton.recipes.group;

import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What an {@link IdAllocator}'s node holds: the first id nobody has reserved yet, and a token
 * unique to the write that put it there ({@code "10000 3f2a9c1e-..."}). Pure encoding.
 *
 * <p>The token is what lets a writer prove, after a lost reply, that the write it retries did land:
 * nobody else ever writes the same token. A node holding only a number ({@code "5000"}, as an
 * operator would seed it) or nothing at all (a parent made on the way to another node) is read too.
 *
 * @param next the first id not yet reserved
 * @param token the writer's token, or null when the node holds no token
 */
record Reservation(long next, String token) {
    private static final Pattern FORM = Pattern.compile("(\\d{1,19})(?: ([0-9A-Za-z-]{1,64}))?");

    byte[] encode() {
        return (token == null ? Long.toString(next) : next + " " + token).getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * Reads a node's data; empty data means nothing was ever reserved there, so ids start at {@code firstId}.
     *
     * @throws IdAllocatorException naming the path and what it holds, for anything else
     */
    static Reservation decode(String path, byte[] data, long firstId) {
        if (data.length == 0) {
            return new Reservation(firstId, null);
        }
        String text = new String(data, StandardCharsets.US_ASCII);
        Matcher m = FORM.matcher(text);
        if (data.length <= 90 && m.matches()) {
            try {
                return new Reservation(Long.parseLong(m.group(1)), m.group(2));
            } catch (NumberFormatException tooLarge) {
                // falls through to the error below
            }
        }
        String shown = data.length <= 40 ? "'" + text + "'" : data.length + " bytes";
        throw new IdAllocatorException("id allocator " + path + " holds " + shown
            + ", expected '<next id> <writer token>' or a number: it is not an allocator's node");
    }
}
