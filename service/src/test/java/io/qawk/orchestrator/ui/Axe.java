package io.qawk.orchestrator.ui;

import io.qawk.orchestrator.testkit.BuildInstalls;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Deque's axe-core, the accessibility engine, run on the page a {@link Browser} shows: the build npm-installs it into
 * {@code <checkout>/target/axe} (service/src/test/scripts/install-axe.sh, never fetched from anywhere at test time);
 * it is injected into the page with executeScript and asked for the WCAG 2.x A/AA rules and the best practices.
 * {@code -Dqawk.axe.skip=true} leaves it out: {@link #violations} then answers empty and {@link #skipped} says so.
 */
final class Axe {

    static final Path SCRIPT = Path.of(System.getProperty("qawk.project.dir", ".."),
            "target", "axe", "node_modules", "axe-core", "axe.min.js");

    private static String source;

    private Axe() {
    }

    static boolean skipped() {
        return Boolean.getBoolean("qawk.axe.skip");
    }

    private static synchronized String source() {
        if (source == null) {
            Optional<String> failed = BuildInstalls.await("axe");
            if (!Files.isRegularFile(SCRIPT)) {
                throw new IllegalStateException("The accessibility check needs npm's axe-core at " + SCRIPT
                        + ", which the build installs (service/src/test/scripts/install-axe.sh, needs npm) unless"
                        + " -Dqawk.axe.skip=true." + failed.map(why -> " " + why).orElse(""));
            }
            try {
                source = Files.readString(SCRIPT);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return source;
    }

    /**
     * What axe finds wrong on the page as it is now, one line per violation with each node it names (its selector and
     * axe's summary of what to fix); empty when nothing, or when skipped.
     */
    @SuppressWarnings("unchecked")
    static List<String> violations(Browser browser) {
        if (skipped()) {
            return List.of();
        }
        if (!Boolean.TRUE.equals(browser.js("return typeof window.axe === 'object';"))) {
            browser.js(source() + "\n;window.axe = axe;");
        }
        browser.driver.manage().timeouts().scriptTimeout(Duration.ofSeconds(60));
        Object answer = browser.driver.executeAsyncScript("""
                const done = arguments[arguments.length - 1];
                axe.run(document, { resultTypes: ['violations'] })
                  .then(r => done(r.violations.map(v => ({ id: v.id, help: v.help, impact: v.impact,
                      nodes: v.nodes.map(n => ({ target: n.target.join(' '), summary: n.failureSummary })) }))))
                  .catch(e => done([{ id: 'axe-error', help: String(e), impact: 'error', nodes: [] }]));
                """);
        return ((List<Map<String, Object>>) answer).stream().map(v -> v.get("id") + " (" + v.get("impact") + "): "
                + v.get("help") + ((List<Map<String, Object>>) v.get("nodes")).stream()
                        .map(n -> "\n    at " + n.get("target") + " — " + String.valueOf(n.get("summary")).replace('\n', ' '))
                        .collect(Collectors.joining())).toList();
    }
}
