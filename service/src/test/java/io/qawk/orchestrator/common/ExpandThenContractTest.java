package io.qawk.orchestrator.common;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 57: in a rolling upgrade the previous release runs on the schema the new one migrated. So a migration only
 * adds what the previous release can ignore (expand), and removes or reshapes only what no running release reads any
 * more (contract, a later release). This reads every migration script after {@link #CHECKED_AFTER} and fails on a
 * statement the previous release could trip over (a table, view or column dropped or renamed, a column's type
 * changed, a column made or added not null without a default, a constraint or unique index added or dropped) unless
 * the comment right above that statement carries the marker {@code -- contract: unread since <release>}, naming the
 * release (a version or a commit) from which nothing reads what it removes.
 */
class ExpandThenContractTest {

    /** The last migration written before this rule; V33's type change is one the rule would have flagged. */
    static final int CHECKED_AFTER = 37;

    static final Pattern FILE = Pattern.compile("V(\\d+)__.*\\.sql");

    static final Pattern MARKER = Pattern.compile(
            "--\\s*contract:\\s*unread since\\s+(v?\\d+(\\.\\d+)+|[0-9a-f]{7,40})\\b", Pattern.CASE_INSENSITIVE);

    /** Statements the previous release, reading and writing the schema as it was, could fail on. */
    static final List<Pattern> CONTRACTING = Stream.of(
                    "\\bdrop\\s+(table|view|materialized\\s+view|type|function|sequence)\\b",
                    "\\balter\\s+table\\b.*\\bdrop\\s+(column\\b|constraint\\b|(?!default\\b|not\\s+null\\b)\\w+\\s*$)",
                    "\\brename\\b",
                    "\\balter\\s+column\\s+\\S+\\s+(set\\s+data\\s+)?type\\b",
                    "\\bset\\s+not\\s+null\\b",
                    "\\badd\\s+constraint\\b",
                    "\\badd\\s+(primary\\s+key|unique|check|foreign\\s+key|exclude)\\b",
                    "\\bcreate\\s+unique\\s+index\\b")
            .map(p -> Pattern.compile(p, Pattern.CASE_INSENSITIVE | Pattern.DOTALL))
            .toList();

    /** {@code add column … not null} without a default: the previous release's inserts leave it empty and fail. */
    static final Pattern ADD_NOT_NULL = Pattern.compile("\\badd\\s+column\\b[^,]*?\\bnot\\s+null\\b",
            Pattern.CASE_INSENSITIVE | Pattern.DOTALL);

    @Test
    void everyMigrationAfterTheRuleOnlyExpandsOrNamesTheReleaseThatStoppedReading() throws Exception {
        Map<Integer, Path> scripts = scripts();
        assertThat(scripts).as("migration scripts").containsKey(CHECKED_AFTER);
        List<String> found = new ArrayList<>();
        scripts.forEach((version, script) -> {
            if (version > CHECKED_AFTER) {
                try {
                    unmarkedContractions(Files.readString(script))
                            .forEach(s -> found.add(script.getFileName() + ": " + s));
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            }
        });
        assertThat(found).as("statements the previous release may still read or write; expand now and contract in a "
                + "later release, marked `-- contract: unread since <release>` (docs/design.md)").isEmpty();
    }

    @Test
    void theTypeChangeOfV33IsOneTheRuleFlags() throws Exception {
        // the widening of system_deployment.phase changed a result type the previous release had prepared
        String v33 = Files.readString(scripts().get(33));
        assertThat(unmarkedContractions(v33))
                .containsExactly("alter table system_deployment alter column phase type varchar(32)");
    }

    @Test
    void whatThePreviousReleaseCanIgnorePasses() {
        assertThat(unmarkedContractions("""
                -- a new table, a nullable column, a column with a default, an index
                create table deployment_note (id bigserial primary key, text text not null);
                alter table system_deployment add column note text;
                alter table system_type add column strict boolean not null default false;
                create index note_by_text on deployment_note (text);
                alter table system_deployment alter column note set default 'none';
                alter table system_deployment alter column note drop not null;
                alter table system_deployment alter column note drop default;
                """)).isEmpty();
    }

    @Test
    void whatThePreviousReleaseMayReadOrWriteIsFlagged() {
        assertThat(unmarkedContractions("""
                drop table deployment_note;
                alter table system_deployment drop column note;
                alter table system_deployment drop note;
                alter table system_deployment rename column note to remark;
                alter table deployment_note rename to remark;
                alter table system_deployment alter column phase type varchar(64);
                alter table system_deployment alter column phase set data type text;
                alter table system_deployment alter column note set not null;
                alter table system_type add column strict boolean not null;
                alter table system_type add constraint strict_named check (strict or name <> '');
                create unique index one_note on deployment_note (text);
                alter table system_type drop constraint system_type_name_key;
                """)).hasSize(12);
    }

    @Test
    void aContractionMarkedWithTheReleaseThatStoppedReadingPasses() {
        assertThat(unmarkedContractions("""
                -- contract: unread since 1.4.0 (the screen reads remark since 1.3.0)
                alter table system_deployment drop column note;
                -- contract: unread since 3f2a9c1
                drop table deployment_note;
                """)).isEmpty();
        assertThat(unmarkedContractions("""
                -- contract: unread since soon
                alter table system_deployment drop column note;
                -- contract: unread since 1.4.0
                alter table system_deployment add column note2 text;
                drop table deployment_note;
                """)).as("a marker names a release, and covers only the statement right below it").hasSize(2);
    }

    /** The contracting statements of a script that are not marked, whitespace-normalised, comments left out. */
    static List<String> unmarkedContractions(String script) {
        List<String> found = new ArrayList<>();
        StringBuilder comments = new StringBuilder();
        StringBuilder statement = new StringBuilder();
        for (String line : script.split("\n")) {
            int dashes = line.indexOf("--");
            if (dashes >= 0) {
                comments.append(line.substring(dashes)).append('\n');
                line = line.substring(0, dashes);
            }
            int end;
            while ((end = line.indexOf(';')) >= 0) {
                statement.append(line, 0, end);
                String sql = statement.toString().replaceAll("\\s+", " ").strip();
                if (!sql.isEmpty() && contracts(sql) && !MARKER.matcher(comments).find()) {
                    found.add(sql);
                }
                statement.setLength(0);
                comments.setLength(0);
                line = line.substring(end + 1);
            }
            statement.append(line).append(' ');
        }
        return found;
    }

    static boolean contracts(String sql) {
        if (CONTRACTING.stream().anyMatch(p -> p.matcher(sql).find())) {
            return true;
        }
        Matcher m = ADD_NOT_NULL.matcher(sql);
        while (m.find()) {
            String clause = sql.substring(m.start(), clauseEnd(sql, m.start()));
            if (!clause.toLowerCase().contains(" default ") && !clause.toLowerCase().contains(" generated ")) {
                return true;
            }
        }
        return false;
    }

    /** Where the {@code add column} clause starting at {@code from} ends: the next top-level comma, or the end. */
    private static int clauseEnd(String sql, int from) {
        int depth = 0;
        for (int i = from; i < sql.length(); i++) {
            char ch = sql.charAt(i);
            if (ch == '(') {
                depth++;
            } else if (ch == ')') {
                depth--;
            } else if (ch == ',' && depth == 0) {
                return i;
            }
        }
        return sql.length();
    }

    /** The migration scripts the service ships, by version. */
    static Map<Integer, Path> scripts() throws IOException, URISyntaxException {
        URL dir = ExpandThenContractTest.class.getClassLoader().getResource("db/migration");
        assertThat(dir).as("db/migration on the class path").isNotNull();
        Map<Integer, Path> byVersion = new TreeMap<>();
        try (Stream<Path> files = Files.list(Path.of(dir.toURI()))) {
            files.forEach(f -> {
                Matcher m = FILE.matcher(f.getFileName().toString());
                if (m.matches()) {
                    byVersion.put(Integer.parseInt(m.group(1)), f);
                }
            });
        }
        return byVersion;
    }
}
