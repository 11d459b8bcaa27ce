package io.qawk.orchestrator.bench;

import com.sun.management.OperatingSystemMXBean;
import org.jboss.logging.Logger;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The benchmark's table: one row per figure (what, goal, measured, met?), plus notes. Rows of each benchmark test
 * are kept in their own file under {@code target/benchmark/} ({@code rows-<name>.tsv}, with the notes in
 * {@code notes-<name>.md}); every write renders the one table {@code results.md} (or the given file) from all of them.
 */
final class BenchReport {

    private static final Logger LOG = Logger.getLogger(BenchReport.class);

    record Row(String what, String goal, String measured, String met) {
    }

    private final String name;
    private final Path dir;
    private final List<Row> rows = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();

    BenchReport(String name, Path dir) {
        this.name = name;
        this.dir = dir;
    }

    static Path defaultDir() {
        String basedir = System.getProperty("basedir");
        return (basedir == null ? Path.of("") : Path.of(basedir)).toAbsolutePath().resolve("target/benchmark");
    }

    BenchReport row(String what, String goal, String measured, String met) {
        rows.add(new Row(what, goal, measured, met));
        return this;
    }

    BenchReport note(String text) {
        notes.add(text);
        return this;
    }

    List<Row> rows() {
        return List.copyOf(rows);
    }

    static String met(boolean ok) {
        return ok ? "yes" : "**no**";
    }

    /**
     * Stores this benchmark's rows and renders {@code fileName} from the rows of every benchmark in the directory; the
     * table also goes to the build's output, so that {@code ./mvnw -Pbenchmark verify} prints it.
     */
    Path write(String fileName) {
        try {
            Files.createDirectories(dir);
            StringBuilder tsv = new StringBuilder();
            for (Row r : rows) {
                tsv.append(clean(r.what)).append('\t').append(clean(r.goal)).append('\t').append(clean(r.measured))
                        .append('\t').append(clean(r.met)).append('\n');
            }
            Files.writeString(dir.resolve("rows-" + name + ".tsv"), tsv, StandardCharsets.UTF_8);
            Files.writeString(dir.resolve("notes-" + name + ".md"), String.join("\n", notes) + "\n",
                    StandardCharsets.UTF_8);
            Path out = dir.resolve(fileName);
            String table = render();
            Files.writeString(out, table, StandardCharsets.UTF_8);
            LOG.infof("benchmark table %s:%n%s", out, table);
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private String render() throws IOException {
        List<Path> rowFiles;
        try (Stream<Path> s = Files.list(dir)) {
            rowFiles = s.filter(p -> p.getFileName().toString().startsWith("rows-")).sorted().toList();
        }
        boolean smoke = name.contains("smoke");
        StringBuilder md = new StringBuilder("# Qawk scale benchmark\n\n");
        md.append("Written ").append(Instant.now().truncatedTo(ChronoUnit.SECONDS)).append(" on ")
                .append(Runtime.getRuntime().availableProcessors()).append(" CPU(s), ")
                .append(totalMemoryGb()).append(" GB RAM, Java ").append(System.getProperty("java.version"))
                .append(" (").append(System.getProperty("java.vm.name")).append(")")
                .append(", JVM max heap ").append(Runtime.getRuntime().maxMemory() / (1024 * 1024)).append(" MB.\n\n");
        md.append("| what | goal | measured | met? |\n|---|---|---|---|\n");
        for (Path f : rowFiles) {
            String other = f.getFileName().toString().replace("rows-", "").replace(".tsv", "");
            if (other.contains("smoke") != smoke) {
                continue; // the smoke table and the real one are kept apart
            }
            for (String line : Files.readAllLines(f, StandardCharsets.UTF_8)) {
                if (line.isBlank()) {
                    continue;
                }
                String[] c = line.split("\t", -1);
                md.append("| ").append(String.join(" | ", c)).append(" |\n");
            }
        }
        for (Path f : rowFiles) {
            String other = f.getFileName().toString().replace("rows-", "").replace(".tsv", "");
            if (other.contains("smoke") != smoke) {
                continue;
            }
            Path notesFile = dir.resolve("notes-" + other + ".md");
            if (Files.exists(notesFile)) {
                md.append("\n## Notes: ").append(other).append(" (rows written ")
                        .append(Files.getLastModifiedTime(f).toInstant().truncatedTo(ChronoUnit.SECONDS))
                        .append(")\n\n").append(Files.readString(notesFile));
            }
        }
        return md.toString();
    }

    private static String clean(String s) {
        return s == null ? "" : s.replace('\t', ' ').replace('\n', ' ').replace("|", "\\|");
    }

    private static long totalMemoryGb() {
        try {
            OperatingSystemMXBean os =
                    (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
            return Math.round(os.getTotalMemorySize() / (1024.0 * 1024 * 1024));
        } catch (RuntimeException | LinkageError e) {
            return -1;
        }
    }
}
