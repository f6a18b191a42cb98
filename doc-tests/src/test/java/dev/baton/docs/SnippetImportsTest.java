package dev.baton.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A reader can tell where every name in a Java snippet comes from: each snippet shows its imports,
 * or its page shows them once in a block of nothing but imports. Every import names a class that
 * exists, and every type a page's snippets use is imported, in {@code java.lang}, declared in a
 * snippet of the page, or listed as the reader's own in a {@code // your own types: A, B} line.
 */
class SnippetImportsTest {
    private static final Pattern IMPORT = Pattern.compile("^import\\s+(static\\s+)?([\\w.]+)(\\.\\*)?\\s*;", Pattern.MULTILINE);
    private static final Pattern OWN_TYPES = Pattern.compile("//\\s*your own types:\\s*([\\w,\\s]+)");
    private static final Pattern DECLARED = Pattern.compile("\\b(?:class|interface|record|enum)\\s+([A-Z]\\w*)");
    /** A capitalised word not after a dot: a type (or a constructor) named by its simple name. */
    private static final Pattern TYPE_USE = Pattern.compile("(?<![\\w.$])([A-Z][a-z]\\w*)\\b");

    static Stream<Path> pages() {
        return Pages.userPages().stream();
    }


    @ParameterizedTest(name = "{0}")
    @MethodSource("pages")
    void everySnippetShowsItsImportsOrItsPageDoesOnce(Path page) {
        List<Pages.Block> java = javaBlocks(page);
        boolean pageHasImportBlock = java.stream().anyMatch(b -> isImportsOnly(b.text()));
        for (Pages.Block block : java) {
            assertThat(pageHasImportBlock || IMPORT.matcher(block.text()).find())
                .as("%s line %d: a Java snippet without imports on a page with no block of imports", name(page), block.line())
                .isTrue();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("pages")
    void everyImportNamesAClassThatExists(Path page) {
        for (Pages.Block block : javaBlocks(page)) {
            Matcher m = IMPORT.matcher(block.text());
            while (m.find()) {
                assertThat(m.group(3)).as("%s line %d: spell out %s.* (a reader cannot tell which names it brings)",
                    name(page), block.line(), m.group(2)).isNull();
                String className = m.group(1) != null ? m.group(2).substring(0, m.group(2).lastIndexOf('.')) : m.group(2);
                assertThat(exists(className)).as("%s line %d: import %s names no class on Baton's classpath",
                    name(page), block.line(), m.group(2)).isTrue();
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("pages")
    void everyTypeASnippetUsesIsAccountedFor(Path page) {
        List<Pages.Block> java = javaBlocks(page);
        Set<String> known = new TreeSet<>();
        for (Pages.Block block : java) {
            Matcher imports = IMPORT.matcher(block.text());
            while (imports.find()) {
                String name = imports.group(2);
                known.add(name.substring(name.lastIndexOf('.') + 1));
            }
            Matcher own = OWN_TYPES.matcher(block.text());
            while (own.find()) {
                for (String type : own.group(1).split(",")) {
                    known.add(type.trim());
                }
            }
            Matcher declared = DECLARED.matcher(code(block.text()));
            while (declared.find()) {
                known.add(declared.group(1));
            }
        }
        Set<String> unaccounted = new LinkedHashSet<>();
        List<String> where = new ArrayList<>();
        for (Pages.Block block : java) {
            Matcher use = TYPE_USE.matcher(code(block.text()));
            while (use.find()) {
                String type = use.group(1);
                if (!known.contains(type) && !exists("java.lang." + type) && unaccounted.add(type)) {
                    where.add(type + " (line " + block.line() + ")");
                }
            }
        }
        assertThat(where).as("%s: types its snippets use that no import, declaration or 'your own types' line accounts for",
            name(page)).isEmpty();
    }

    private static List<Pages.Block> javaBlocks(Path page) {
        return Pages.blocks(Pages.read(page)).stream().filter(b -> b.language().equals("java")).toList();
    }

    /** A block of nothing but imports (and comments): the page's one statement of where its names come from. */
    private static boolean isImportsOnly(String text) {
        List<String> lines = withoutComments(text).lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
        return !lines.isEmpty() && lines.stream().allMatch(l -> l.startsWith("import "));
    }

    private static String withoutComments(String text) {
        return text.replaceAll("(?s)/\\*.*?\\*/", " ").replaceAll("//[^\\n]*", " ");
    }

    /** The code without comments, string and character literals, and import lines. */
    private static String code(String text) {
        return withoutComments(text)
            .replaceAll("\"(?:\\\\.|[^\"\\\\])*\"", "\"\"")
            .replaceAll("'(?:\\\\.|[^'\\\\])'", "' '")
            .replaceAll("(?m)^import [^\\n]*", " ");
    }

    /** Whether {@code className} names a class, reading trailing segments as nested classes if need be. */
    private static boolean exists(String className) {
        String candidate = className;
        for (int nesting = 0; nesting < 3 && candidate.indexOf('.') > 0; nesting++) {
            try {
                Class.forName(candidate, false, SnippetImportsTest.class.getClassLoader());
                return true;
            } catch (ClassNotFoundException e) {
                int dot = candidate.lastIndexOf('.');
                candidate = candidate.substring(0, dot) + '$' + candidate.substring(dot + 1);
            }
        }
        return false;
    }

    private static String name(Path page) {
        return Pages.root().relativize(page).toString();
    }
}
