package dev.baton.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** The repository's user documentation as the checks read it: pages and their fenced code blocks. */
final class Pages {
    /** A fenced block: its language tag (may be empty), its text (without the fences) and the line it starts on. */
    record Block(String language, String text, int line) {
    }

    private static final Pattern FENCE = Pattern.compile("^```([A-Za-z0-9]*)\\n(.*?)^```$", Pattern.MULTILINE | Pattern.DOTALL);

    private Pages() {
    }

    /** The repository's root folder (surefire passes it; the module sits one level down). */
    static Path root() {
        return Path.of(System.getProperty("baton.root", "..")).toAbsolutePath().normalize();
    }

    /** README.md and every page in docs/. */
    static List<Path> userPages() {
        List<Path> pages = new ArrayList<>();
        pages.add(root().resolve("README.md"));
        try (Stream<Path> docs = Files.list(root().resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return pages;
    }

    static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every fenced block of {@code markdown}, in order. */
    static List<Block> blocks(String markdown) {
        List<Block> blocks = new ArrayList<>();
        Matcher m = FENCE.matcher(markdown);
        while (m.find()) {
            int line = (int) markdown.substring(0, m.start()).chars().filter(c -> c == '\n').count() + 1;
            blocks.add(new Block(m.group(1), m.group(2), line));
        }
        return blocks;
    }
}
