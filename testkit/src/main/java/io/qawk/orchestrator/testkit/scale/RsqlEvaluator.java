package io.qawk.orchestrator.testkit.scale;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import java.util.regex.Pattern;

import io.qawk.orchestrator.query.Rsql;

/**
 * Evaluates a query tree read by {@link Rsql} the way hawkBit applies it to strings (SQL LIKE, upper-cased on both
 * sides), so the scale double can answer {@code q} against in-memory targets:
 * <ul>
 * <li>{@code ==}: case-insensitive; {@code *} matches any characters, even inside quotes (it cannot be escaped).
 * {@code _} is taken literally here (on some databases hawkBit's LIKE treats it as a single-character wildcard; the
 * service avoids {@code ==} for such values anyway);</li>
 * <li>{@code !=}: negation of {@code ==}; a target without the field (e.g. no such attribute) matches;</li>
 * <li>{@code =in=} / {@code =out=}: exact, case-insensitive; {@code =out=} matches targets without the field;</li>
 * <li>{@code =lt= =le= =gt= =ge=}: numbers when both sides are numbers (times in epoch millis), else strings.</li>
 * </ul>
 * Other operators hawkBit knows ({@code =like=}, {@code =is=} …) are refused by {@link #check}.
 */
public final class RsqlEvaluator {

    /** A query the double cannot answer (hawkBit would answer 400). */
    public static final class BadQuery extends RuntimeException {
        BadQuery(String message) {
            super(message);
        }
    }

    /** Operators evaluated here. */
    static final Set<String> OPERATORS = Set.of("==", "!=", "=in=", "=out=", "=lt=", "=le=", "=gt=", "=ge=");

    private static final Map<String, Pattern> LIKE_CACHE = new ConcurrentHashMap<>();

    private RsqlEvaluator() {
    }

    /** Parses {@code query} and {@link #check}s it; throws {@link BadQuery}. */
    public static Rsql.Node parse(String query) {
        if (query == null || query.isBlank()) {
            throw new BadQuery("empty query");
        }
        Rsql.Node node;
        try {
            node = Rsql.parse(query);
        } catch (Rsql.SyntaxException e) {
            throw new BadQuery(e.getMessage() + ": " + query);
        }
        check(node);
        return node;
    }

    /** Refuses operators not evaluated here and several values for an operator that takes one. */
    static void check(Rsql.Node node) {
        for (Rsql.Comparison c : Rsql.comparisons(node)) {
            if (!OPERATORS.contains(c.operator())) {
                throw new BadQuery("unknown operator " + c.operator());
            }
            if (c.values().size() > 1 && !c.operator().equals("=in=") && !c.operator().equals("=out=")) {
                throw new BadQuery(c.operator() + " takes one value");
            }
        }
    }

    /** Evaluates {@code node}, each comparison by {@code comparison}. */
    public static boolean matches(Rsql.Node node, Predicate<Rsql.Comparison> comparison) {
        if (node instanceof Rsql.And a) {
            for (Rsql.Node n : a.children()) {
                if (!matches(n, comparison)) {
                    return false;
                }
            }
            return true;
        }
        if (node instanceof Rsql.Or o) {
            for (Rsql.Node n : o.children()) {
                if (matches(n, comparison)) {
                    return true;
                }
            }
            return false;
        }
        return comparison.test((Rsql.Comparison) node);
    }

    /** The comparison applied to one value (null: the target has no such field). */
    public static boolean compare(String actual, Rsql.Comparison c) {
        return compare(actual, c.operator(), c.values());
    }

    static boolean compare(String actual, String operator, List<String> values) {
        switch (operator) {
            case "==":
                return actual != null && like(actual, values.get(0));
            case "!=":
                return actual == null || !like(actual, values.get(0));
            case "=in=":
                return actual != null && values.stream().anyMatch(v -> v.equalsIgnoreCase(actual));
            case "=out=":
                return actual == null || values.stream().noneMatch(v -> v.equalsIgnoreCase(actual));
            case "=lt=":
                return actual != null && order(actual, values.get(0)) < 0;
            case "=le=":
                return actual != null && order(actual, values.get(0)) <= 0;
            case "=gt=":
                return actual != null && order(actual, values.get(0)) > 0;
            case "=ge=":
                return actual != null && order(actual, values.get(0)) >= 0;
            default:
                throw new BadQuery("unknown operator " + operator);
        }
    }

    private static int order(String a, String b) {
        try {
            return Long.compare(Long.parseLong(a), Long.parseLong(b));
        } catch (NumberFormatException e) {
            return a.compareToIgnoreCase(b);
        }
    }

    /** SQL LIKE with {@code *} as {@code %}, case-insensitive. */
    static boolean like(String actual, String pattern) {
        if (pattern.indexOf('*') < 0) {
            return actual.equalsIgnoreCase(pattern);
        }
        StringBuilder regex = new StringBuilder("(?is)");
        int start = 0;
        for (int i = 0; i < pattern.length(); i++) {
            if (pattern.charAt(i) == '*') {
                if (i > start) {
                    regex.append(Pattern.quote(pattern.substring(start, i)));
                }
                regex.append(".*");
                start = i + 1;
            }
        }
        if (start < pattern.length()) {
            regex.append(Pattern.quote(pattern.substring(start)));
        }
        return LIKE_CACHE.computeIfAbsent(regex.toString(), Pattern::compile).matcher(actual).matches();
    }

    /** The selector's prefix lower-cased and its key (after the first dot) as written: {@code Attribute.Dev} → {@code attribute.Dev}. */
    static String normalise(String selector) {
        int dot = selector.indexOf('.');
        String head = (dot < 0 ? selector : selector.substring(0, dot)).toLowerCase(Locale.ROOT);
        if (dot < 0) {
            return head;
        }
        String tail = selector.substring(dot + 1);
        return head.equals("attribute") || head.equals("metadata") ? head + "." + tail
                : head + "." + tail.toLowerCase(Locale.ROOT);
    }
}
