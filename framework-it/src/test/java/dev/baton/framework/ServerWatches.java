package dev.baton.framework;

import dev.baton.server.FourLetterWords;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** What a server says of the watches it holds: for tests that a recipe or cache leaves none behind. */
public final class ServerWatches {
    private static final Pattern TOTAL = Pattern.compile("Total watches:\\s*(\\d+)");

    private ServerWatches() {
    }

    /**
     * {@return the number of watches the server at {@code port} holds, over all its sessions, from its
     * {@code wchs} four-letter word}
     *
     * @param port the server's client port
     * @throws Exception if the server does not answer, or answers without a count
     */
    public static int total(int port) throws Exception {
        String answer = FourLetterWords.send(port, "wchs", Duration.ofSeconds(5));
        Matcher total = TOTAL.matcher(answer);
        if (!total.find()) {
            throw new AssertionError("no watch count in the server's wchs answer: " + answer);
        }
        return Integer.parseInt(total.group(1));
    }
}
