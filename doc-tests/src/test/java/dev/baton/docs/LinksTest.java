package dev.baton.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every relative link of README.md and docs/*.md reaches a file that exists, and every
 * {@code #anchor} a heading of its page, named as GitHub names it: lower case, punctuation dropped,
 * spaces to '-', a repeated heading suffixed -1, -2, ...
 */
class LinksTest {
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.*?)\\s*#*\\s*$", Pattern.MULTILINE);

    static Stream<Path> pages() {
        return Pages.userPages().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("pages")
    void everyRelativeLinkAndAnchorResolves(Path page) {
        List<String> broken = new ArrayList<>();
        Matcher m = LINK.matcher(prose(Pages.read(page)));
        while (m.find()) {
            String target = m.group(1);
            if (target.matches("^[a-z]+:.*")) {
                continue; // https:, mailto: ...
            }
            int hash = target.indexOf('#');
            String file = hash < 0 ? target : target.substring(0, hash);
            Path dest = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
            if (!Files.exists(dest)) {
                broken.add(target + " (no such file)");
            } else if (hash >= 0 && dest.toString().endsWith(".md") && !anchors(dest).contains(target.substring(hash + 1))) {
                broken.add(target + " (no such heading)");
            }
        }
        assertThat(broken).as("broken links in %s", Pages.root().relativize(page)).isEmpty();
    }

    /** The page without fenced blocks and inline code, where a "](" is not a link. */
    private static String prose(String markdown) {
        return markdown.replaceAll("(?ms)^```.*?^```$", "").replaceAll("`[^`\\n]*`", "");
    }

    static Set<String> anchors(Path page) {
        Set<String> anchors = new HashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        Matcher m = HEADING.matcher(Pages.read(page).replaceAll("(?ms)^```.*?^```$", ""));
        while (m.find()) {
            String text = m.group(1).replaceAll("\\[([^\\]]*)\\]\\([^)]*\\)", "$1").replaceAll("<[^>]+>", "");
            String slug = text.strip().toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}_\\- ]", "").replace(' ', '-');
            int n = seen.merge(slug, 1, Integer::sum) - 1;
            anchors.add(n == 0 ? slug : slug + "-" + n);
        }
        return anchors;
    }
}
