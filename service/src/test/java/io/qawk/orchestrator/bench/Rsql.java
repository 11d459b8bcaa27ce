package io.qawk.orchestrator.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * RSQL/FIQL as hawkBit's parser (jirutka rsql-parser) reads it, turned into a tree that can be evaluated against
 * in-memory targets. The grammar follows the test helper {@code io.qawk.orchestrator.hawkbit.RsqlReader} (same
 * tokens, quoting and escapes), extended to keep the structure ({@code ;} binds tighter than {@code ,}, parentheses)
 * so a query can be evaluated, not only read.
 * <p>
 * Semantics as hawkBit applies them to strings (SQL LIKE, upper-cased on both sides):
 * <ul>
 * <li>{@code ==}: case-insensitive; {@code *} matches any characters, even inside quotes (it cannot be escaped).
 * {@code _} is taken literally here (on some databases hawkBit's LIKE treats it as a single-character wildcard;
 * {@link io.qawk.orchestrator.hawkbit.Fiql} avoids {@code ==} for such values anyway);</li>
 * <li>{@code !=}: negation of {@code ==}; a target without the field (e.g. no such attribute) matches;</li>
 * <li>{@code =in=} / {@code =out=}: exact, case-insensitive; {@code =out=} matches targets without the field;</li>
 * <li>{@code =lt= =le= =gt= =ge=}: numbers when both sides are numbers (times in epoch millis), else strings.</li>
 * </ul>
 */
public final class Rsql {

    /** A node of the query tree. */
    public sealed interface Node permits And, Or, Comparison {
    }

    public record And(List<Node> children) implements Node {
    }

    public record Or(List<Node> children) implements Node {
    }

    /** {@code selector} as written (case kept), {@code operator} such as {@code ==} or {@code =in=}, unescaped values. */
    public record Comparison(String selector, String operator, List<String> values) implements Node {
    }

    /** A query that hawkBit would refuse (answered 400). */
    public static final class BadQuery extends RuntimeException {
        BadQuery(String message) {
            super(message);
        }
    }

    private static final Set<String> OPERATORS = Set.of("==", "!=", "=in=", "=out=", "=lt=", "=le=", "=gt=", "=ge=");

    private final String in;
    private int pos;

    private Rsql(String in) {
        this.in = in;
    }

    /** Parses {@code query}; throws {@link BadQuery} on a syntax error or an unknown operator. */
    public static Node parse(String query) {
        if (query == null || query.isBlank()) {
            throw new BadQuery("empty query");
        }
        Rsql reader = new Rsql(query);
        Node node = reader.or();
        if (reader.pos != query.length()) {
            throw new BadQuery("trailing input at " + reader.pos + ": " + query);
        }
        return node;
    }

    /** Every comparison of the tree, depth first. */
    static List<Comparison> comparisons(Node node) {
        List<Comparison> out = new ArrayList<>();
        collect(node, out);
        return out;
    }

    private static void collect(Node node, List<Comparison> out) {
        if (node instanceof Comparison c) {
            out.add(c);
        } else if (node instanceof And a) {
            a.children().forEach(n -> collect(n, out));
        } else if (node instanceof Or o) {
            o.children().forEach(n -> collect(n, out));
        }
    }

    /** Evaluates {@code node}, each comparison by {@code comparison}. */
    public static boolean matches(Node node, Predicate<Comparison> comparison) {
        if (node instanceof And a) {
            for (Node n : a.children()) {
                if (!matches(n, comparison)) {
                    return false;
                }
            }
            return true;
        }
        if (node instanceof Or o) {
            for (Node n : o.children()) {
                if (matches(n, comparison)) {
                    return true;
                }
            }
            return false;
        }
        return comparison.test((Comparison) node);
    }

    /** The comparison applied to one value (null: the target has no such field). */
    public static boolean compare(String actual, Comparison c) {
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

    private static final java.util.Map<String, Pattern> LIKE_CACHE = new java.util.concurrent.ConcurrentHashMap<>();

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

    // ------------------------------------------------------------------------------------------- grammar

    private Node or() {
        List<Node> parts = new ArrayList<>();
        parts.add(and());
        while (peek(',')) {
            pos++;
            parts.add(and());
        }
        return parts.size() == 1 ? parts.get(0) : new Or(List.copyOf(parts));
    }

    private Node and() {
        List<Node> parts = new ArrayList<>();
        parts.add(constraint());
        while (peek(';')) {
            pos++;
            parts.add(constraint());
        }
        return parts.size() == 1 ? parts.get(0) : new And(List.copyOf(parts));
    }

    private Node constraint() {
        if (peek('(')) {
            pos++;
            Node inner = or();
            expect(')');
            return inner;
        }
        return comparison();
    }

    private Node comparison() {
        String selector = unreserved();
        if (selector.isEmpty()) {
            throw new BadQuery("selector expected at " + pos + ": " + in);
        }
        String operator;
        if (in.startsWith("!=", pos)) {
            operator = "!=";
            pos += 2;
        } else {
            expect('=');
            int start = pos - 1;
            while (pos < in.length() && Character.isLetter(in.charAt(pos))) {
                pos++;
            }
            expect('=');
            operator = in.substring(start, pos).toLowerCase(Locale.ROOT);
        }
        if (!OPERATORS.contains(operator)) {
            throw new BadQuery("unknown operator " + operator + " in: " + in);
        }
        List<String> values = new ArrayList<>();
        if (peek('(')) {
            pos++;
            values.add(value());
            while (peek(',')) {
                pos++;
                values.add(value());
            }
            expect(')');
        } else {
            values.add(value());
        }
        if (values.size() > 1 && !operator.equals("=in=") && !operator.equals("=out=")) {
            throw new BadQuery(operator + " takes one value: " + in);
        }
        return new Comparison(selector, operator, List.copyOf(values));
    }

    private String value() {
        if (peek('"') || peek('\'')) {
            char quote = in.charAt(pos++);
            StringBuilder out = new StringBuilder();
            while (pos < in.length() && in.charAt(pos) != quote) {
                char c = in.charAt(pos++);
                if (c == '\\') {
                    if (pos >= in.length()) {
                        throw new BadQuery("dangling escape: " + in);
                    }
                    c = in.charAt(pos++);
                }
                out.append(c);
            }
            expect(quote);
            return out.toString();
        }
        String plain = unreserved();
        if (plain.isEmpty()) {
            throw new BadQuery("value expected at " + pos + ": " + in);
        }
        return plain;
    }

    private String unreserved() {
        int start = pos;
        while (pos < in.length() && "\"'();,=!~<> ".indexOf(in.charAt(pos)) < 0) {
            pos++;
        }
        return in.substring(start, pos);
    }

    private boolean peek(char c) {
        return pos < in.length() && in.charAt(pos) == c;
    }

    private void expect(char c) {
        if (!peek(c)) {
            throw new BadQuery("'" + c + "' expected at " + pos + ": " + in);
        }
        pos++;
    }
}
