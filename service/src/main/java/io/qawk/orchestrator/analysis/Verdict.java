package io.qawk.orchestrator.analysis;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What a metric gate says about one system now, with the words for the run's reason and timeline.
 * <ul>
 *   <li>{@code PASSED}: every number the query gave meets the condition;</li>
 *   <li>{@code FAILED}: a number does not, e.g. {@code metric gate failed: sum(rate(lane_errors_total{system="lane-07",
 *   centre="c01"}[1m])) = 0.31, needs < 0.05}: the soak rolls the system back with this as its reason;</li>
 *   <li>{@code INCONCLUSIVE}: there is nothing to judge: Prometheus cannot be reached or is too slow, refuses the
 *   query, the query gives no series (no data), only NaN, or no number at all. Never a failure: an unreachable
 *   Prometheus must not roll a lane back.</li>
 * </ul>
 *
 * @param query the query as sent, placeholders filled in
 * @param value the number judged (the failing one when it failed); null when inconclusive
 */
public record Verdict(Outcome outcome, String query, Double value, String reason) {

    static final int MAX_QUERY_IN_REASON = 300;

    public enum Outcome { PASSED, FAILED, INCONCLUSIVE }

    public boolean passed() {
        return outcome == Outcome.PASSED;
    }

    public boolean failed() {
        return outcome == Outcome.FAILED;
    }

    public boolean inconclusive() {
        return outcome == Outcome.INCONCLUSIVE;
    }

    /** Judges Prometheus' answer to {@code query} by {@code condition}: a pure function, table-tested. */
    static Verdict judge(String query, Condition condition, PrometheusAnswer answer) {
        String q = abbreviate(query);
        if (answer instanceof PrometheusAnswer.Numbers numbers) {
            return judge(query, q, condition, numbers.samples());
        }
        if (answer instanceof PrometheusAnswer.NotNumbers n) {
            return inconclusive(query, q + " gives " + ("matrix".equals(n.resultType()) ? "a range vector"
                    : "a " + n.resultType()) + ", not a number");
        }
        if (answer instanceof PrometheusAnswer.Rejected r) {
            return inconclusive(query, "Prometheus rejects " + q + ": " + r.error());
        }
        return inconclusive(query, ((PrometheusAnswer.Unavailable) answer).why());
    }

    private static Verdict judge(String query, String q, Condition condition, List<PrometheusAnswer.Sample> samples) {
        if (samples.isEmpty()) {
            return inconclusive(query, q + " gives no data (no series)");
        }
        List<PrometheusAnswer.Sample> numbers = samples.stream().filter(s -> !Double.isNaN(s.value())).toList();
        if (numbers.isEmpty()) {
            return inconclusive(query, q + " gives NaN, nothing to judge");
        }
        String series = samples.size() == 1 ? "" : " (" + samples.size() + " series)";
        for (PrometheusAnswer.Sample s : numbers) {
            if (!condition.test(s.value())) {
                String which = samples.size() == 1 ? "" : " for " + labels(s.labels());
                return new Verdict(Outcome.FAILED, query, s.value(), "metric gate failed: " + q + " = "
                        + format(s.value(), condition.threshold()) + which + ", needs " + condition + series);
            }
        }
        double shown = numbers.get(0).value();
        return new Verdict(Outcome.PASSED, query, shown, "metric gate passed: " + q + " = "
                + format(shown, condition.threshold()) + (samples.size() == 1 ? "" : " and the others") + ", needs "
                + condition + series);
    }

    static Verdict inconclusive(String query, String why) {
        return new Verdict(Outcome.INCONCLUSIVE, query, null, "metric gate inconclusive: " + why);
    }

    /** A value as operators read it: 4 significant digits, no exponent for everyday sizes; {@code +Inf}. */
    static String format(double v) {
        return rounded(v, 4);
    }

    /**
     * {@code v} with as many digits as it takes to stand on the same side of the threshold as the value itself, so
     * that a reason never reads {@code = 0.05, needs < 0.05} for 0.0500001.
     */
    static String format(double v, double threshold) {
        for (int digits = 4; digits < 17; digits++) {
            String s = rounded(v, digits);
            if (Double.isInfinite(v) || Double.compare(Double.parseDouble(s), threshold) == Double.compare(v, threshold)) {
                return s;
            }
        }
        return rounded(v, 17);
    }

    private static String rounded(double v, int digits) {
        if (Double.isNaN(v)) {
            return "NaN";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "+Inf" : "-Inf";
        }
        if (v == 0) {
            return "0";
        }
        BigDecimal rounded = new BigDecimal(v).round(new MathContext(digits)).stripTrailingZeros();
        double abs = Math.abs(v);
        return abs >= 1e-6 && abs < 1e12 ? rounded.toPlainString() : rounded.toString();
    }

    private static String labels(Map<String, String> labels) {
        return labels.entrySet().stream().map(e -> e.getKey() + "=\"" + PromqlTemplate.escape(e.getValue(), '"') + "\"")
                .collect(Collectors.joining(",", "{", "}"));
    }

    private static String abbreviate(String query) {
        String oneLine = query.replaceAll("\\s*\\n\\s*", " ").strip();
        return oneLine.length() > MAX_QUERY_IN_REASON ? oneLine.substring(0, MAX_QUERY_IN_REASON) + "…" : oneLine;
    }
}
