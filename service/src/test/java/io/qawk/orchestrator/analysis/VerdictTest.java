package io.qawk.orchestrator.analysis;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How a metric gate judges Prometheus' answer, and the words it says it in. Only numbers that miss the condition
 * fail; no answer, no data, NaN and no number are inconclusive (an unreachable Prometheus never rolls a lane back).
 */
class VerdictTest {

    static final String Q = "sum(rate(lane_errors_total{system=\"lane-07\",centre=\"c01\"}[1m]))";
    static final Condition BELOW = Condition.parse("< 0.05").orElseThrow();

    static PrometheusAnswer.Numbers one(double v) {
        return new PrometheusAnswer.Numbers(List.of(new PrometheusAnswer.Sample(Map.of(), v)));
    }

    @Test
    void aValueThatMissesTheConditionFailsWithTheValueInTheReason() {
        Verdict v = Verdict.judge(Q, BELOW, one(0.31));
        assertThat(v.outcome()).isEqualTo(Verdict.Outcome.FAILED);
        assertThat(v.value()).isEqualTo(0.31);
        assertThat(v.query()).isEqualTo(Q);
        assertThat(v.reason()).isEqualTo("metric gate failed: " + Q + " = 0.31, needs < 0.05");
    }

    @Test
    void aValueThatMeetsItPasses() {
        Verdict v = Verdict.judge(Q, BELOW, one(0.0123456));
        assertThat(v.outcome()).isEqualTo(Verdict.Outcome.PASSED);
        assertThat(v.reason()).isEqualTo("metric gate passed: " + Q + " = 0.01235, needs < 0.05");
    }

    @Test
    void severalSeriesMustAllMeetItAndTheOneThatMissesIsNamed() {
        PrometheusAnswer.Numbers three = new PrometheusAnswer.Numbers(List.of(
                new PrometheusAnswer.Sample(Map.of("instance", "a:1"), 0.01),
                new PrometheusAnswer.Sample(Map.of("instance", "b\"2"), 0.2),
                new PrometheusAnswer.Sample(Map.of("instance", "c:3"), Double.NaN)));
        assertThat(Verdict.judge(Q, BELOW, three).reason()).isEqualTo("metric gate failed: " + Q
                + " = 0.2 for {instance=\"b\\\"2\"}, needs < 0.05 (3 series)");
        PrometheusAnswer.Numbers fine = new PrometheusAnswer.Numbers(List.of(
                new PrometheusAnswer.Sample(Map.of("instance", "a:1"), 0.01),
                new PrometheusAnswer.Sample(Map.of("instance", "c:3"), 0.02)));
        assertThat(Verdict.judge(Q, BELOW, fine).reason()).isEqualTo("metric gate passed: " + Q
                + " = 0.01 and the others, needs < 0.05 (2 series)");
    }

    @Test
    void nothingToJudgeIsInconclusiveAndSaysWhy() {
        assertThat(Verdict.judge(Q, BELOW, new PrometheusAnswer.Numbers(List.of())))
                .isEqualTo(new Verdict(Verdict.Outcome.INCONCLUSIVE, Q, null,
                        "metric gate inconclusive: " + Q + " gives no data (no series)"));
        assertThat(Verdict.judge(Q, BELOW, one(Double.NaN)).reason())
                .isEqualTo("metric gate inconclusive: " + Q + " gives NaN, nothing to judge");
        assertThat(Verdict.judge(Q, BELOW, new PrometheusAnswer.NotNumbers("matrix")).reason())
                .isEqualTo("metric gate inconclusive: " + Q + " gives a range vector, not a number");
        assertThat(Verdict.judge(Q, BELOW, new PrometheusAnswer.Rejected("1:6: parse error")).reason())
                .isEqualTo("metric gate inconclusive: Prometheus rejects " + Q + ": 1:6: parse error");
        Verdict down = Verdict.judge(Q, BELOW, new PrometheusAnswer.Unavailable("Prometheus cannot be reached (x)"));
        assertThat(down.inconclusive()).isTrue();
        assertThat(down.failed()).isFalse();
        assertThat(down.reason()).isEqualTo("metric gate inconclusive: Prometheus cannot be reached (x)");
    }

    @Test
    void aValueJustOverTheThresholdIsShownWithTheDigitsThatSaySo() {
        assertThat(Verdict.judge(Q, BELOW, one(0.0500001)).reason())
                .isEqualTo("metric gate failed: " + Q + " = 0.0500001, needs < 0.05");
        assertThat(Verdict.judge(Q, BELOW, one(0.05)).reason())
                .isEqualTo("metric gate failed: " + Q + " = 0.05, needs < 0.05");
        assertThat(Verdict.judge(Q, BELOW, one(0.04999999)).reason())
                .isEqualTo("metric gate passed: " + Q + " = 0.04999999, needs < 0.05");
    }

    @Test
    void infinityIsANumberAndJudged() {
        assertThat(Verdict.judge(Q, BELOW, one(Double.POSITIVE_INFINITY)).reason())
                .isEqualTo("metric gate failed: " + Q + " = +Inf, needs < 0.05");
    }

    @Test
    void aLongOrMultiLineQueryIsShortenedInTheReasonButSentWhole() {
        String longQuery = "sum(\n  rate(x[1m])\n)" + " + 0".repeat(200);
        Verdict v = Verdict.judge(longQuery, BELOW, one(1));
        assertThat(v.query()).isEqualTo(longQuery);
        assertThat(v.reason()).startsWith("metric gate failed: sum( rate(x[1m]) ) + 0 + 0")
                .contains("… = 1, needs < 0.05").hasSizeLessThan(400);
    }

    @ParameterizedTest(name = "{0} reads {1}")
    @CsvSource({"0.31, 0.31", "0.0500001, 0.05", "1234.5678, 1235", "0.000012345, 0.00001234", "3e-9, 3E-9",
            "1e15, 1E+15", "-2.5, -2.5", "0, 0", "100, 100", "0.1, 0.1"})
    void valuesReadAsPeopleWriteThem(double v, String words) {
        assertThat(Verdict.format(v)).isEqualTo(words);
    }

    /** Prometheus' JSON, as {@link PrometheusClient} reads it. */
    @ParameterizedTest(name = "[{index}] HTTP {0}")
    @CsvSource(delimiter = '|', quoteCharacter = '~', value = {
            "200 | {\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[{\"metric\":{\"system\":\"lane-07\"},\"value\":[1.7e9,\"0.31\"]}]}} | Numbers[samples=[Sample[labels={system=lane-07}, value=0.31]]]",
            "200 | {\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[]}}             | Numbers[samples=[]]",
            "200 | {\"status\":\"success\",\"data\":{\"resultType\":\"scalar\",\"result\":[1.7e9,\"+Inf\"]}} | Numbers[samples=[Sample[labels={}, value=Infinity]]]",
            "200 | {\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[{\"metric\":{},\"value\":[1.7e9,\"NaN\"]}]}} | Numbers[samples=[Sample[labels={}, value=NaN]]]",
            "200 | {\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[]}}             | NotNumbers[resultType=matrix]",
            "200 | {\"status\":\"success\",\"data\":{\"resultType\":\"string\",\"result\":[1.7e9,\"a\"]}}  | NotNumbers[resultType=string]",
            "400 | {\"status\":\"error\",\"errorType\":\"bad_data\",\"error\":\"1:6: parse error: unclosed left parenthesis\"} | Rejected[error=1:6: parse error: unclosed left parenthesis]",
            "422 | {\"status\":\"error\",\"errorType\":\"execution\",\"error\":\"many-to-many matching not allowed\"} | Unavailable[why=Prometheus answered HTTP 422 (execution: many-to-many matching not allowed)]",
            "503 | {\"status\":\"error\",\"errorType\":\"timeout\",\"error\":\"query timed out\"}           | Unavailable[why=Prometheus answered HTTP 503 (timeout: query timed out)]",
            "502 | <html>Bad Gateway</html>                                                            | Unavailable[why=Prometheus answered HTTP 502 without its API's JSON]",
            "200 | []                                                                                  | Unavailable[why=Prometheus answered HTTP 200 without its API's JSON]",
            "200 | ~~                                                                                  | Unavailable[why=Prometheus answered HTTP 200 without its API's JSON]",
            "200 | {\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[{\"metric\":{},\"value\":[1.7e9,3]}]}} | Unavailable[why=Prometheus answered a result that cannot be read (a sample value is not a string)]",
            "200 | {\"status\":\"success\",\"data\":{\"resultType\":\"histogram\",\"result\":[]}}          | Unavailable[why=Prometheus answered a result of unknown type 'histogram']",
    })
    void readsPrometheusAnswers(int status, String body, String answer) {
        assertThat(PrometheusClient.read(status, body)).hasToString(answer);
    }
}
