package dev.baton.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docs/getting-started.md and examples/getting-started/ are one project: the build compiles and
 * tests the folder, and this test fails when the page shows anything else. Each file appears on
 * the page as a bold {@code `path`} line followed by a fenced block holding the whole file.
 */
class GettingStartedPageTest {
    private static final Pattern FILE_BLOCK = Pattern.compile(
        "^\\*\\*`([^`]+)`\\*\\*\\n\\n```[A-Za-z0-9]*\\n(.*?)^```$", Pattern.MULTILINE | Pattern.DOTALL);

    @Test
    void thePageShowsEveryFileOfTheExampleProjectExactly() throws IOException {
        Map<String, String> onThePage = filesOnThePage();
        Map<String, String> inTheProject = filesOfTheProject();
        assertThat(onThePage.keySet()).as("files shown on docs/getting-started.md vs files in examples/getting-started/")
            .containsExactlyInAnyOrderElementsOf(inTheProject.keySet());
        inTheProject.forEach((path, text) -> assertThat(onThePage.get(path))
            .as("%s on docs/getting-started.md differs from examples/getting-started/%s", path, path)
            .isEqualTo(text));
    }

    @Test
    void theReadmeLinksTheGettingStartedPageFirst() {
        String readme = Pages.read(Pages.root().resolve("README.md"));
        Matcher firstLink = Pattern.compile("\\]\\(([^)]+\\.md)[^)]*\\)").matcher(readme);
        assertThat(firstLink.find()).as("README.md links a page").isTrue();
        assertThat(firstLink.group(1)).as("the first page README.md links").isEqualTo("docs/getting-started.md");
    }

    private static Map<String, String> filesOnThePage() {
        String page = Pages.read(Pages.root().resolve("docs/getting-started.md"));
        Map<String, String> files = new LinkedHashMap<>();
        Matcher m = FILE_BLOCK.matcher(page);
        while (m.find()) {
            String previous = files.put(m.group(1), m.group(2));
            assertThat(previous).as("%s is shown twice on the page", m.group(1)).isNull();
        }
        return files;
    }

    private static Map<String, String> filesOfTheProject() throws IOException {
        Path project = Pages.root().resolve("examples/getting-started");
        Map<String, String> files = new TreeMap<>();
        try (Stream<Path> all = Files.walk(project)) {
            all.filter(Files::isRegularFile)
                .filter(p -> !project.relativize(p).startsWith("target"))
                .filter(p -> !p.getFileName().toString().startsWith("."))
                .forEach(p -> files.put(project.relativize(p).toString().replace('\\', '/'), Pages.read(p)));
        }
        return files;
    }
}
