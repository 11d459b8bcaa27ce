package io.qawk.orchestrator.ui;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The pictures of the screen in docs/ui.md cannot go stale: every one it shows is one ScreenAtEveryWidthTest takes
 * (at 1440 px, into docs/screenshots), and docs/screenshots holds no other picture (no leftover of a view the tests
 * no longer take); the README and the other documents show none but those.
 */
class DocsScreenshotsTest {

    static final Path DOCS = Path.of(System.getProperty("qawk.project.dir", ".."), "docs");
    static final Pattern ANY_SCREENSHOT = Pattern.compile("screenshots/([\\w.-]+\\.png)");
    static final Pattern IMAGE = Pattern.compile("\\]\\((screenshots/[^)\\s]+)\\)|src=\"(screenshots/[^\"]+)\"");

    @Test
    void everyPictureOfTheScreenInTheDocsIsOneTheBrowserTestsTake() throws IOException {
        String ui = Files.readString(DOCS.resolve("ui.md"));
        List<String> shown = IMAGE.matcher(ui).results()
                .map(m -> Path.of(m.group(1) != null ? m.group(1) : m.group(2)).getFileName().toString()).toList();
        assertThat(shown).as("the pictures docs/ui.md shows").isNotEmpty()
                .allSatisfy(name -> assertThat(ScreenAtEveryWidthTest.DOCS_SCREENSHOTS)
                        .as("the pictures the browser tests take (ScreenAtEveryWidthTest.DOCS_SCREENSHOTS)")
                        .contains(name));
        assertThat(shown).as("every picture the tests take is shown").containsAll(ScreenAtEveryWidthTest.DOCS_SCREENSHOTS);
        // the README and the other documents may show them too, but only those
        List<Path> documents = new ArrayList<>(List.of(DOCS.resolveSibling("README.md")));
        try (Stream<Path> md = Files.list(DOCS)) {
            md.filter(f -> f.toString().endsWith(".md")).forEach(documents::add);
        }
        for (Path document : documents) {
            Matcher m = ANY_SCREENSHOT.matcher(Files.readString(document));
            while (m.find()) {
                assertThat(ScreenAtEveryWidthTest.DOCS_SCREENSHOTS).as("%s shows %s", document.getFileName(), m.group())
                        .contains(m.group(1));
            }
        }
        try (Stream<Path> files = Files.list(DOCS.resolve("screenshots"))) {
            assertThat(files.map(f -> f.getFileName().toString()).sorted().toList())
                    .as("docs/screenshots: what the tests write, and nothing else")
                    .containsExactlyInAnyOrderElementsOf(ScreenAtEveryWidthTest.DOCS_SCREENSHOTS);
        }
    }
}
