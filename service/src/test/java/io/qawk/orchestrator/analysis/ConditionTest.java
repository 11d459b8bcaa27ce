package io.qawk.orchestrator.analysis;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/** The condition of a metric gate: what it accepts, how it judges a value, how it reads in a reason. */
class ConditionTest {

    @ParameterizedTest(name = "{0} with {1} -> {2}")
    @CsvSource(delimiter = '|', value = {
            "< 0.05    | 0.049 | true",
            "< 0.05    | 0.05  | false",
            "<= 0.05   | 0.05  | true",
            "<=0.05    | 0.051 | false",
            "> 0.99    | 1     | true",
            "> 0.99    | 0.99  | false",
            ">= 0.99   | 0.99  | true",
            "== 0      | 0     | true",
            "== 0      | -0    | true",
            "== 0      | 1e-9  | false",
            "!= 0      | 3     | true",
            "!= 0      | 0     | false",
            "< -1.5e2  | -151  | true",
            "< .5      | 0.4   | true",
            "> +3.     | 3.5   | true",
            "< 0.05    | NaN   | false",
            "!= 0      | NaN   | false",
            "< 0.05    | Infinity  | false",
            "> 1000    | Infinity  | true",
            "< 0.05    | -Infinity | true",
    })
    void judgesAValue(String condition, double value, boolean holds) {
        assertThat(Condition.parse(condition)).get().satisfies(c -> assertThat(c.test(value)).isEqualTo(holds));
    }

    @ParameterizedTest(name = "\"{0}\" reads \"{1}\"")
    @CsvSource(delimiter = '|', value = {
            "< 0.05      | < 0.05",
            "'  <0.050 ' | < 0.050",
            ">=1e3       | >= 1e3",
            "!=   -2     | != -2",
    })
    void keepsTheNumberAsWritten(String condition, String words) {
        assertThat(Condition.parse(condition)).get().hasToString(words);
    }

    @ParameterizedTest(name = "\"{0}\" is refused")
    @ValueSource(strings = {"", " ", "0.05", "<", "< ", "lt 0.05", "= 0.05", "=< 0.05", "<< 1", "< 0.05 0.1",
            "< NaN", "< Inf", "> +Inf", "< 1e999", "< 0x10", "< 1,5", "< 1_000", "result[0] < 0.05", "< 0.05 and > 0",
            "<\n0.05x"})
    void refusesWhatIsNoComparisonAndNumber(String condition) {
        assertThat(Condition.parse(condition)).isEmpty();
    }

    @Test
    void refusesNullAndOverlongText() {
        assertThat(Condition.parse(null)).isEmpty();
        assertThat(Condition.parse("< " + "1".repeat(Condition.MAX_LENGTH))).isEmpty();
    }
}
