package io.qawk.orchestrator.analysis;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Filling in a metric gate's placeholders: values escaped for the PromQL string they stand in, so that a system key
 * (which a device reports) can never end the string or change the query; placeholders only where that is possible.
 */
class PromqlTemplateTest {

    static final String BRIEF = "sum(rate(lane_errors_total{system=\"{system}\",centre=\"{centre}\"}[1m]))";

    @Test
    void fillsTheSystemAndTheCentreIntoTheirLabelValues() {
        assertThat(PromqlTemplate.problem(BRIEF)).isEmpty();
        assertThat(PromqlTemplate.fill(BRIEF, "lane-07", "c01"))
                .isEqualTo("sum(rate(lane_errors_total{system=\"lane-07\",centre=\"c01\"}[1m]))");
    }

    /** system, centre, template, the query PromQL gets. */
    static Stream<Arguments> escapes() {
        return Stream.of(
                Arguments.of("lane \"7\"", "c01", "m{system=\"{system}\"}", "m{system=\"lane \\\"7\\\"\"}"),
                Arguments.of("a\\b", "c01", "m{system=\"{system}\"}", "m{system=\"a\\\\b\"}"),
                Arguments.of("x\"} or vector(1) or m{a=\"", "c01", "m{system=\"{system}\"}",
                        "m{system=\"x\\\"} or vector(1) or m{a=\\\"\"}"),
                Arguments.of("it's", "c01", "m{system='{system}'}", "m{system='it\\'s'}"),
                Arguments.of("say \"hi\"", "c01", "m{system='{system}'}", "m{system='say \"hi\"'}"),
                Arguments.of("{centre}", "c01", "m{system=\"{system}\",centre=\"{centre}\"}",
                        "m{system=\"{centre}\",centre=\"c01\"}"),
                Arguments.of("lane-07", "{system}", "m{system=\"{system}\",centre=\"{centre}\"}",
                        "m{system=\"lane-07\",centre=\"{system}\"}"),
                Arguments.of("lane.07", "c01", "m{system=~\"{system}\"}", "m{system=~\"lane\\\\.07\"}"),
                Arguments.of("a|b(c)*", "c01", "m{system!~ \"{system}\"}", "m{system!~ \"a\\\\|b\\\\(c\\\\)\\\\*\"}"),
                Arguments.of("lane.07", "c.01", "m{system=~\"{system}\",centre=\"{centre}\"}",
                        "m{system=~\"lane\\\\.07\",centre=\"c.01\"}"),
                Arguments.of("lane-07", "c01", "m{system=\"{system}\"} # by {centre}", "m{system=\"lane-07\"} # by {centre}"),
                Arguments.of("lane-07", "c01", "m{system=\"pre-{system}-post\"}", "m{system=\"pre-lane-07-post\"}"),
                Arguments.of("lane-07", "c01", "m{system=\"{system}\", note=\"a \\\"q\\\"\"}",
                        "m{system=\"lane-07\", note=\"a \\\"q\\\"\"}"));
    }

    @ParameterizedTest(name = "[{index}] {0} / {1}")
    @MethodSource("escapes")
    void escapesEveryValueForItsString(String system, String centre, String template, String query) {
        assertThat(PromqlTemplate.problem(template)).isEmpty();
        assertThat(PromqlTemplate.fill(template, system, centre)).isEqualTo(query);
    }

    @Test
    void escapesLineBreaksAndControlCharacters() {
        assertThat(PromqlTemplate.fill("m{system=\"{system}\"}", "a\nb\rc\td\u0001e\u007f", null))
                .isEqualTo("m{system=\"a\\nb\\rc\\td\\x01e\\x7f\"}");
        assertThat(PromqlTemplate.fill("m{system=\"{system}\"}", "Bahnhofstraße ✓", null))
                .isEqualTo("m{system=\"Bahnhofstraße ✓\"}");
    }

    @Test
    void aSystemWithoutCentreFillsTheEmptyString() {
        assertThat(PromqlTemplate.fill(BRIEF, "lane-07", null))
                .isEqualTo("sum(rate(lane_errors_total{system=\"lane-07\",centre=\"\"}[1m]))");
    }

    @Test
    void aQueryWithoutPlaceholdersStaysAsItIs() {
        assertThat(PromqlTemplate.problem("sum(rate(errors_total[5m]))")).isEmpty();
        assertThat(PromqlTemplate.fill("sum(rate(errors_total[5m]))", "lane-07", "c01")).isEqualTo("sum(rate(errors_total[5m]))");
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', quoteCharacter = '~', value = {
            "m{system={system}}                 | {system} must stand inside a quoted label value, e.g. system=\"{system}\"",
            "sum by ({centre}) (m)              | {centre} must stand inside a quoted label value, e.g. centre=\"{centre}\"",
            "m{system=`{system}`}               | {system} cannot stand inside a `backtick` string, which has no escapes; use double quotes: system=\"{system}\"",
            "m{system=\"{system}\",centre=\"{center}\"} | has the unknown placeholder {center}; only {system} and {centre} are filled in",
            "m{system=\"{System}\"}             | has the unknown placeholder {System}; only {system} and {centre} are filled in",
            "m{system=\"{system}}               | has a string that is never closed (the \" at position 10)",
            "m{system='{system}\"}              | has a string that is never closed (the ' at position 10)",
            "m{system=\"{system}\\\"}           | has a string that is never closed (the \" at position 10)",
    })
    void refusesPlaceholdersThatCannotBeEscaped(String template, String problem) {
        assertThat(PromqlTemplate.problem(template)).contains(problem);
        assertThatThrownBy(() -> PromqlTemplate.fill(template, "lane-07", "c01"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(problem);
    }

    @Test
    void aRegexQuantifierIsNoPlaceholder() {
        assertThat(PromqlTemplate.problem("m{system=~\"{system}\", code=~\"5[0-9]{2}\"}")).isEmpty();
        assertThat(PromqlTemplate.problem("m{system=\"{system}\"} # {center} in a comment")).isEmpty();
    }
}
