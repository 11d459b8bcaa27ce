package io.qawk.orchestrator.analysis;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a metric gate's value must be: a comparison and a number, {@code < 0.05}, {@code >= 0.99}, {@code == 0}.
 * The number is kept as written, so a reason reads {@code needs < 0.05} and not {@code needs < 0.050000000000000003}.
 *
 * @param operator the comparison
 * @param number   the number as written
 * @param threshold the number's value
 */
public record Condition(Operator operator, String number, double threshold) {

    static final int MAX_LENGTH = 64;
    public static final String RULE = "must be a comparison and a number, e.g. \"< 0.05\" (comparisons: <, <=, >, >=, ==, !=)";

    private static final Pattern FORM = Pattern.compile(
            "\\s*(<=|>=|==|!=|<|>)\\s*([-+]?(?:\\d+(?:\\.\\d*)?|\\.\\d+)(?:[eE][-+]?\\d+)?)\\s*");

    /** The comparisons a condition may use. */
    public enum Operator {
        LT("<"), LE("<="), GT(">"), GE(">="), EQ("=="), NE("!=");

        private final String symbol;

        Operator(String symbol) {
            this.symbol = symbol;
        }

        public String symbol() {
            return symbol;
        }

        boolean holds(double value, double threshold) {
            return switch (this) {
                case LT -> value < threshold;
                case LE -> value <= threshold;
                case GT -> value > threshold;
                case GE -> value >= threshold;
                case EQ -> value == threshold;
                case NE -> value != threshold;
            };
        }

        static Operator of(String symbol) {
            for (Operator o : values()) {
                if (o.symbol.equals(symbol)) {
                    return o;
                }
            }
            throw new IllegalArgumentException(symbol);
        }
    }

    /** The condition written in {@code text}, or empty when it is not one (see {@link #RULE}). */
    public static Optional<Condition> parse(String text) {
        if (text == null || text.length() > MAX_LENGTH) {
            return Optional.empty();
        }
        Matcher m = FORM.matcher(text);
        if (!m.matches()) {
            return Optional.empty();
        }
        double threshold = Double.parseDouble(m.group(2));
        if (Double.isInfinite(threshold)) {
            return Optional.empty(); // 1e999
        }
        return Optional.of(new Condition(Operator.of(m.group(1)), m.group(2), threshold));
    }

    /** Whether {@code value} meets the condition. NaN meets none (not even {@code !=}): it is no number to judge. */
    public boolean test(double value) {
        return !Double.isNaN(value) && operator.holds(value, threshold);
    }

    /** {@code < 0.05}: the comparison and the number as written, one space between. */
    @Override
    public String toString() {
        return operator.symbol + " " + number;
    }
}
