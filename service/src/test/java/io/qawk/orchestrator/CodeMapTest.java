package io.qawk.orchestrator;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The map of the code cannot go stale: the list of the service's packages in docs/design.md ("Where things are", under
 * {@code - `service/`}) names
 * exactly the packages of {@code io.qawk.orchestrator}, and every package says in its {@code package-info.java} what
 * it holds.
 */
class CodeMapTest {

    static final Path ROOT = Path.of("src/main/java/io/qawk/orchestrator");
    static final Path MAP = Path.of("../docs/design.md");
    static final Pattern ENTRY = Pattern.compile("^  - `([a-z][a-z0-9.]*)` – ");

    @Test
    void theDesignDocNamesEveryPackageAndNoOther() {
        assertThat(mapPackages(SourceFiles.read(MAP))).as("packages in %s", MAP)
                .containsExactlyInAnyOrderElementsOf(topPackages());
    }

    @Test
    void everyPackageSaysWhatItHolds() {
        List<String> silent = new ArrayList<>();
        for (Path dir : packages()) {
            Path info = dir.resolve("package-info.java");
            String text = Files.exists(info) ? SourceFiles.read(info) : "";
            String doc = text.contains("/**") && text.contains("*/")
                    ? text.substring(text.indexOf("/**") + 3, text.indexOf("*/")).replaceAll("(?m)^\\s*\\*", " ").strip()
                    : "";
            if (doc.length() < 20 || !doc.endsWith(".")) {
                silent.add(ROOT.relativize(dir).toString());
            }
        }
        assertThat(silent).as("packages without a package-info.java sentence").isEmpty();
    }

    /** The reader of the list, on a list made up here: only the service's entries, no paths. */
    @Test
    void readsTheServicesEntriesOnly() {
        String map = """
                - `service/` – the product:
                  - `alpha` – one
                    continued
                  - `beta` – two
                  - `src/main/resources/db/migration` – not a package
                - `query/` – another module
                  - `gamma` – not the service's
                """;
        assertThat(mapPackages(map)).containsExactly("alpha", "beta");
    }

    static Set<String> mapPackages(String text) {
        Set<String> out = new TreeSet<>();
        boolean inService = false;
        for (String line : text.split("\n")) {
            if (line.startsWith("- ")) {
                inService = line.startsWith("- `service/`");
            } else if (inService) {
                Matcher m = ENTRY.matcher(line);
                if (m.find()) {
                    out.add(m.group(1));
                }
            }
        }
        return out;
    }

    private static Set<String> topPackages() {
        Set<String> out = new TreeSet<>();
        for (Path dir : packages()) {
            out.add(ROOT.relativize(dir).getName(0).toString());
        }
        return out;
    }

    /** Every folder under the root that holds Java sources. */
    private static List<Path> packages() {
        try (Stream<Path> files = Files.walk(ROOT)) {
            return files.filter(Files::isDirectory).filter(d -> !d.equals(ROOT)).filter(CodeMapTest::holdsJava)
                    .sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean holdsJava(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            return files.anyMatch(f -> f.toString().endsWith(".java") && !f.endsWith("package-info.java"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
