package io.qawk.orchestrator.hawkbit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * hawkBit's FIQL field names and status values are spoken only inside {@code hawkbit/}: the rest of Qawk asks
 * {@link HawkbitGateway} domain questions ({@code inSyncOn}, {@code pendingOn} …). Excepted: {@code query/TargetQuerySyntax},
 * which checks queries operators write (and so names hawkBit's fields), {@code demo/}, which drives hawkBit's API
 * directly and will move to a module of its own; and in {@code evidence/} the bare key {@code "controllerId"}, by which
 * the record names each device as Qawk's own API does (its FIQL comparisons stay forbidden there too).
 */
class HawkbitFieldNamesStayInsideTest {

    /** A string literal naming a hawkBit target field or update status, or a FIQL comparison of controllerId. */
    static final Pattern HAWKBIT_NAME = Pattern.compile(
            "\"[^\"\\n]*(installedDS|assignedDS|updateStatus|in_sync|controllerId\\s*(==|!=|=in=|=out=))[^\"\\n]*\""
                    + "|\"controllerId\"");

    static final Path MAIN = Path.of("src/main/java/io/qawk/orchestrator");

    @Test
    void noHawkbitFieldNameOutsideTheHawkbitPackage() {
        assertThat(offenders(MAIN)).as("hawkBit field names outside hawkbit/ (ask HawkbitGateway instead)").isEmpty();
    }

    @Test
    void theCheckSeesWhatItLooksFor() {
        assertThat(HAWKBIT_NAME.matcher("Fiql.eq(\"installedDS.name\", set.name())").find()).isTrue();
        assertThat(HAWKBIT_NAME.matcher("Fiql.in(\"controllerId\", ids)").find()).isTrue();
        assertThat(HAWKBIT_NAME.matcher("\"in_sync\".equalsIgnoreCase(t.updateStatus())").find()).isTrue();
        assertThat(HAWKBIT_NAME.matcher("q = \"controllerId==x\"").find()).isTrue();
        assertThat(HAWKBIT_NAME.matcher("record DeviceRecord(String controllerId, String updateStatus)").find()).isFalse();
        assertThat(offenders(MAIN.resolve("hawkbit")).size()).as("the hawkbit package itself is full of them")
                .isPositive();
    }

    /** {@code file:line: text} of every match under {@code root}, without the excepted places. */
    static List<String> offenders(Path root) {
        List<String> out = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
                String rel = MAIN.relativize(file).toString().replace('\\', '/');
                if (!root.endsWith("hawkbit") && (rel.startsWith("hawkbit/") || rel.startsWith("demo/")
                        || rel.equals("query/TargetQuerySyntax.java"))) {
                    continue;
                }
                List<String> lines = Files.readAllLines(file);
                for (int i = 0; i < lines.size(); i++) {
                    Matcher m = HAWKBIT_NAME.matcher(lines.get(i));
                    if (m.find() && !(rel.startsWith("evidence/") && m.group().equals("\"controllerId\""))) {
                        out.add(rel + ":" + (i + 1) + ": " + lines.get(i).strip());
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }
}
