package io.qawk.orchestrator.channel.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.qawk.orchestrator.testkit.SharedHawkbit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The Helm chart in {@code k8s/qawk-orchestrator}, rendered and linted with the real Helm library (helm-java), always
 * in a JVM of its own ({@link HelmCli}) so the Go runtime never shares a JVM with Quarkus tests.
 */
public final class ChartFiles {

    public static final YAMLMapper YAML = new YAMLMapper();

    private ChartFiles() {
    }

    public static Path project() {
        return SharedHawkbit.projectDir();
    }

    public static Path chart() {
        return project().resolve("k8s/qawk-orchestrator");
    }

    public static Path minimalValues() {
        return chart().resolve("ci/minimal-values.yaml");
    }

    public static Path fullValues() {
        return project().resolve("service/src/test/resources/helm/full-values.yaml");
    }

    /** {@code helm template qawk <chart> -n ops -f <values>... --set k=v...}, as parsed documents. */
    public static List<JsonNode> render(List<Path> valuesFiles, Map<String, Object> set) {
        List<String> args = new ArrayList<>(List.of("template", chart().toString()));
        valuesFiles.forEach(f -> args.addAll(List.of("-f", f.toString())));
        set.forEach((k, v) -> args.addAll(List.of("--set", k + "=" + v)));
        return documents(helm(args));
    }

    /** {@code helm lint --strict <chart>}: whether it failed, then its messages. */
    public static List<String> lint(Path chart) {
        return List.of(helm(List.of("lint", chart.toString())).split("\n"));
    }

    /** Runs {@link HelmCli} in a JVM of its own, with this test's class path; its stdout, or its error as exception. */
    static String helm(List<String> args) {
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-cp", classpath, HelmCli.class.getName()));
        cmd.addAll(args);
        try {
            Path err = Files.createTempFile("helm", ".err");
            try {
                Process p = new ProcessBuilder(cmd).redirectError(err.toFile()).start();
                p.getOutputStream().close();
                String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
                    p.destroyForcibly();
                    throw new IllegalStateException("helm " + args.get(0) + " failed: " + Files.readString(err));
                }
                return out;
            } finally {
                Files.deleteIfExists(err);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public static List<JsonNode> documents(String yaml) {
        List<JsonNode> docs = new ArrayList<>();
        try (var it = YAML.readerFor(JsonNode.class).<JsonNode>readValues(yaml)) {
            while (it.hasNext()) {
                JsonNode n = it.next();
                if (n != null && !n.isNull() && !n.isMissingNode() && n.size() > 0) {
                    docs.add(n);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return docs;
    }

    public static List<JsonNode> ofKind(List<JsonNode> docs, String kind) {
        return docs.stream().filter(d -> kind.equals(d.path("kind").asText())).toList();
    }

    public static JsonNode one(List<JsonNode> docs, String kind) {
        List<JsonNode> found = ofKind(docs, kind);
        if (found.size() != 1) {
            throw new AssertionError("expected one " + kind + ", found " + found.size());
        }
        return found.get(0);
    }

    /**
     * A copy of the chart whose values.yaml is the chart's defaults overlaid with {@code values} (what {@code helm lint
     * -f values} would check; helm-java's lint takes no values file).
     */
    public static Path chartWithValues(Path values, Path tempDir) throws IOException {
        Path copy = tempDir.resolve("qawk-orchestrator");
        try (Stream<Path> files = Files.walk(chart())) {
            for (Path p : files.toList()) {
                Path target = copy.resolve(chart().relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target);
                }
            }
        }
        ObjectNode merged = (ObjectNode) YAML.readTree(chart().resolve("values.yaml").toFile());
        merge(merged, (ObjectNode) YAML.readTree(values.toFile()));
        YAML.writeValue(copy.resolve("values.yaml").toFile(), merged);
        return copy;
    }

    private static void merge(ObjectNode into, ObjectNode from) {
        for (Iterator<Map.Entry<String, JsonNode>> it = from.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            JsonNode existing = into.get(e.getKey());
            if (existing instanceof ObjectNode o && e.getValue() instanceof ObjectNode v) {
                merge(o, v);
            } else {
                into.set(e.getKey(), e.getValue());
            }
        }
    }
}
