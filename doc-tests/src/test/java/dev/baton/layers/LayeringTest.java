package dev.baton.layers;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The layers of DESIGN.md, checked on the sources: a recipe's main code uses the framework's public
 * packages only (never {@code dev.baton.framework.internal}, which is a promise, not a wall, in Java
 * without modules), and no recipe uses another (what two recipes share lives in the framework).
 * Sources, not classes, because a constant the compiler inlines leaves no trace in a class file.
 */
class LayeringTest {
    /**
     * Known breaches, as "file relative to the root -> the package it reaches", each with the change that
     * removes it. Empty: keep it so; a new entry needs a reason in its comment.
     */
    private static final Set<String> ALLOWED = Set.of();

    private static final Pattern RECIPE_PACKAGE = Pattern.compile("\\bdev\\.baton\\.recipes\\.([a-z]+)\\b");
    private static final Pattern FRAMEWORK_INTERNAL = Pattern.compile("\\bdev\\.baton\\.framework\\.internal\\b");

    @Test
    void recipesUseNeitherTheFrameworksInternalsNorEachOther() throws IOException {
        Path root = Path.of(System.getProperty("baton.root", "..")).toAbsolutePath().normalize();
        List<Path> recipeModules;
        try (Stream<Path> modules = Files.list(root)) {
            recipeModules = modules.filter(m -> m.getFileName().toString().startsWith("recipes-"))
                .filter(m -> Files.isDirectory(m.resolve("src/main/java"))).sorted().toList();
        }
        assertThat(recipeModules).as("recipe modules under %s", root).hasSizeGreaterThanOrEqualTo(8);

        List<String> breaches = new ArrayList<>();
        for (Path module : recipeModules) {
            String own = module.getFileName().toString().substring("recipes-".length());
            try (Stream<Path> files = Files.walk(module.resolve("src/main/java"))) {
                for (Path file : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
                    for (String reached : breaches(read(file), own)) {
                        String breach = root.relativize(file) + " -> " + reached;
                        if (!ALLOWED.contains(breach)) {
                            breaches.add(breach);
                        }
                    }
                }
            }
        }
        assertThat(breaches).as("recipe main code reaching dev.baton.framework.internal or another recipe").isEmpty();
    }

    @Test
    void theScanSeesImportsStaticImportsAndQualifiedNamesButNotComments() {
        String source = """
            package dev.baton.recipes.queue;

            import dev.baton.framework.BatonClient;
            import dev.baton.framework.internal.Errors;
            import static dev.baton.recipes.lock.Locks.lock;
            import dev.baton.recipes.queue.QueueLayout;
            // dev.baton.recipes.barrier is mentioned in a comment only
            class Q {
                Object o = new dev.baton.recipes.election.LeaderLatch(null, null, null);
            }
            """;
        assertThat(breaches(source, "queue"))
            .containsExactly("dev.baton.framework.internal", "dev.baton.recipes.lock", "dev.baton.recipes.election");
    }

    /** The packages {@code source}, of recipe {@code own}, reaches that it must not, in order of appearance. */
    static List<String> breaches(String source, String own) {
        List<String> found = new ArrayList<>();
        boolean inBlockComment = false;
        for (String raw : source.split("\n")) {
            String line = raw.strip();
            if (inBlockComment) {
                if (line.contains("*/")) {
                    inBlockComment = false;
                }
                continue;
            }
            if (line.startsWith("/*")) {
                inBlockComment = !line.contains("*/");
                continue;
            }
            int comment = line.indexOf("//");
            String code = comment >= 0 ? line.substring(0, comment) : line;
            if (FRAMEWORK_INTERNAL.matcher(code).find()) {
                found.add("dev.baton.framework.internal");
            }
            Matcher recipe = RECIPE_PACKAGE.matcher(code);
            while (recipe.find()) {
                if (!recipe.group(1).equals(own)) {
                    found.add("dev.baton.recipes." + recipe.group(1));
                }
            }
        }
        return found;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
