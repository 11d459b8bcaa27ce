package io.qawk.orchestrator;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs, their devices and their timelines have one face: {@code deployment/store/} (its repositories and the writers
 * behind them) and the entity classes themselves. No other main class uses the writers or writes SQL on
 * {@code system_run}, {@code run_device} or {@code run_event}, but for the exceptions named here with their reason;
 * and the timeline's writer is injected, never looked up through {@code Arc.container()}. Read from the sources, as
 * {@link PackageDependenciesTest} does.
 */
class RunTablesTest {

    static final Path MAIN = PackageDependenciesTest.MAIN;
    static final Path STORE = MAIN.resolve("deployment/store");
    static final Set<Path> ENTITIES = Set.of(MAIN.resolve("deployment/model/SystemRun.java"),
            MAIN.resolve("deployment/model/RunDevice.java"), MAIN.resolve("deployment/model/RunEvent.java"));

    static final Pattern WRITERS = Pattern.compile("\\b(SystemRunWriter|RunDeviceWriter)\\b");
    /** SQL in a string literal that reads or writes one of the run tables (not a constraint named after one). */
    static final Pattern RUN_TABLE_SQL = Pattern.compile(
            "(?i)\\b(from|join|update|into)\\s+(system_run|run_device|run_event)\\b");

    /** Files allowed to, each with why it still does. An exception that no longer applies fails the test too. */
    static final Map<String, String> EXCEPTIONS = Map.of(
            "deployment/engine/StartGate.java", "who drives a system now, by name and by shared device, in one native"
                    + " query per chunk, and the candidates read through SystemRunWriter.read: a pass step the planner's"
                    + " reshaping changes at the same time",
            "deployment/engine/Photographer.java", "the runs to photograph read through SystemRunWriter.read: a pass"
                    + " step the planner's reshaping changes at the same time",
            "metrics/StoreGauges.java", "gauges counted on a schedule on their own connection, outside any"
                    + " transaction, joined with system_deployment; read only",
            "guard/ThreatStore.java", "which members Qawk's own runs hold, joined with the guard's tables; the guard"
                    + " uses deployment.model only, read only");

    @Test
    void onlyTheStoreAndTheEntitiesTouchTheRunTables() {
        Map<String, Set<String>> found = new TreeMap<>();
        for (Path file : SourceFiles.javaFiles(MAIN)) {
            if (file.startsWith(STORE) || ENTITIES.contains(file)) {
                continue;
            }
            String source = SourceFiles.read(file);
            Set<String> why = touches(source);
            if (!why.isEmpty()) {
                found.put(MAIN.relativize(file).toString(), why);
            }
        }
        assertThat(found.keySet()).as("classes outside deployment/store/ that use the writers or write SQL on the"
                + " run tables: %s", found).isSubsetOf(EXCEPTIONS.keySet());
        assertThat(EXCEPTIONS.keySet()).as("exceptions that no longer apply (remove them)")
                .isSubsetOf(found.keySet());
    }

    @Test
    void theTimelineWriterIsInjected() {
        Set<String> lookedUp = new TreeSet<>();
        for (Path file : SourceFiles.javaFiles(MAIN)) {
            String code = PackageDependenciesTest.code(SourceFiles.read(file));
            if (code.contains("Arc.container()") && code.contains("TimelineWriter")) {
                lookedUp.add(MAIN.relativize(file).toString());
            }
        }
        assertThat(lookedUp).as("classes that find TimelineWriter through Arc.container()").isEmpty();
    }

    /** The reader itself, on sources made up here: code and SQL count, comments and constraint names do not. */
    @Test
    void readsWritersAndSqlNotCommentsOrConstraintNames() {
        assertThat(touches("""
                class A { // SystemRunWriter
                    /** update system_run set … */
                    String unique = "system_run_unique";
                    String one = "system_run_one_driver";
                }
                """)).isEmpty();
        assertThat(touches("class B { @Inject RunDeviceWriter w; }")).containsExactly("uses RunDeviceWriter");
        assertThat(touches("class C { String q = \"select r.id from system_run r join run_device d on …\"; }"))
                .containsExactly("SQL: from system_run", "SQL: join run_device");
        assertThat(touches("class D { String q = \"insert into RUN_EVENT (id) values (1)\"; }"))
                .containsExactly("SQL: into RUN_EVENT");
    }

    /** What in this source uses the writers (in code) or the run tables (in SQL strings), each once. */
    static Set<String> touches(String source) {
        Set<String> out = new TreeSet<>();
        Matcher writers = WRITERS.matcher(PackageDependenciesTest.code(source));
        while (writers.find()) {
            out.add("uses " + writers.group(1));
        }
        Matcher sql = RUN_TABLE_SQL.matcher(withoutComments(source));
        while (sql.find()) {
            out.add("SQL: " + sql.group(1) + " " + sql.group(2));
        }
        return out;
    }

    /** The source without its comments, strings kept (a comment marker inside a string is rare enough here). */
    static String withoutComments(String source) {
        return source.replaceAll("(?s)/\\*.*?\\*/", " ").replaceAll("(?m)^\\s*//.*$", "");
    }
}
