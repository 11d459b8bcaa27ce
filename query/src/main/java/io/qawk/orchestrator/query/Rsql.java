package io.qawk.orchestrator.query;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The one reader of hawkBit's query language (RSQL/FIQL as jirutka rsql-parser reads it): turns a query into a tree
 * of {@link And}, {@link Or} and {@link Comparison} nodes, or says what is wrong and where. Depends on the JDK only.
 *
 * <p>Grammar: {@code or := and (',' and)*}, {@code and := term (';' term)*},
 * {@code term := '(' or ')' | selector op argument}, {@code op := '==' | '!=' | '=' letters '='} (one of
 * {@link #OPERATORS}, case-insensitive, kept lower-cased), {@code argument := value | '(' value (',' value)* ')'}.
 * A value is bare (no white space and none of {@code " ' ( ) ; , = < > ! ~}) or in single or double quotes, where a
 * backslash escapes the next character ({@code "a\"b"} is {@code a"b}). {@code ;} binds tighter than {@code ,};
 * white space may stand before a term, before a closing parenthesis and at the end. At most {@link #MAX_DEPTH}
 * nested parentheses.
 *
 * <p>Stricter than jirutka's parser in two corners nothing of Qawk writes (Fiql quotes every value): white space
 * between a value and the next {@code ;} {@code ,} {@code )} or around an operator is refused, and a bare value ends
 * at any white space (jirutka would take a tab or newline into it). Its {@code < <= > >=} spellings of the
 * comparison operators are not read either.
 *
 * <p>What the grammar leaves to the caller (which fields exist, whether {@code =in=} needs a list) is checked by
 * {@link Checks}, called as the parser reaches each part, so the problem reported is always the leftmost one.
 */
public final class Rsql {

    /** A node of the query tree. */
    public sealed interface Node permits And, Or, Comparison {
    }

    /** All children hold ({@code ;}); at least two. */
    public record And(List<Node> children) implements Node {
        public And {
            children = List.copyOf(children);
        }
    }

    /** One child holds ({@code ,}); at least two. */
    public record Or(List<Node> children) implements Node {
        public Or {
            children = List.copyOf(children);
        }
    }

    /** {@code selector} as written (case kept), {@code operator} lower-cased such as {@code ==}, unescaped values. */
    public record Comparison(String selector, String operator, List<String> values) implements Node {
        public Comparison {
            values = List.copyOf(values);
        }
    }

    /** A query that does not follow the grammar, or that a {@link Checks} refused; the message says what and where. */
    public static final class SyntaxException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        public SyntaxException(String message) {
            super(message, null);
        }

        /** {@code what} + {@code " at position "} + the 1-based position of {@code index}. */
        public static SyntaxException at(String what, int index) {
            return new SyntaxException(what + " at position " + (index + 1));
        }

        @Override
        public synchronized Throwable fillInStackTrace() {
            return this; // an expected answer, not a bug: no stack trace to build
        }
    }

    /** Rules a caller adds to the grammar; each may throw {@link SyntaxException} to refuse the query. */
    public interface Checks {
        /** No rule beyond the grammar. */
        Checks NONE = new Checks() {
        };

        /** A selector, as written, starting at {@code index} (0-based). */
        default void selector(String selector, int index) {
        }

        /** The argument of {@code operator} starts at {@code index}; {@code list}: it is in parentheses. */
        default void argument(String operator, boolean list, int index) {
        }
    }

    /** Operators hawkBit's parser knows (jirutka's defaults and hawkBit's own), lower case. */
    public static final Set<String> OPERATORS = Set.of("==", "!=", "=lt=", "=le=", "=gt=", "=ge=", "=in=", "=out=",
            "=like=", "=notlike=", "=is=", "=not=");
    /** Deepest nesting of parentheses accepted. */
    public static final int MAX_DEPTH = 20;

    private final String text;
    private final Checks checks;
    private int pos;

    private Rsql(String text, Checks checks) {
        this.text = text;
        this.checks = checks;
    }

    /** Parses {@code query} by the grammar alone. */
    public static Node parse(String query) {
        return parse(query, Checks.NONE);
    }

    /** Parses {@code query}, applying {@code checks} as each part is read; throws {@link SyntaxException}. */
    public static Node parse(String query, Checks checks) {
        Rsql p = new Rsql(query, checks);
        Node node = p.or(0);
        p.skipSpace();
        if (p.pos < query.length()) {
            char c = query.charAt(p.pos);
            throw p.error("unexpected '" + c + "'" + ("=<>!~".indexOf(c) >= 0
                    ? " (a value holding = < > ! or ~ must be quoted, e.g. \"a!b\")" : ""));
        }
        return node;
    }

    /** Every comparison of the tree, left to right. */
    public static List<Comparison> comparisons(Node node) {
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

    // ------------------------------------------------------------------------------------------- grammar

    private Node or(int depth) {
        if (depth > MAX_DEPTH) {
            throw error("nesting is too deep");
        }
        Node first = and(depth);
        if (!peek(',')) {
            return first;
        }
        List<Node> parts = new ArrayList<>(4);
        parts.add(first);
        while (peek(',')) {
            pos++;
            parts.add(and(depth));
        }
        return new Or(parts);
    }

    private Node and(int depth) {
        Node first = term(depth);
        if (!peek(';')) {
            return first;
        }
        List<Node> parts = new ArrayList<>(4);
        parts.add(first);
        while (peek(';')) {
            pos++;
            parts.add(term(depth));
        }
        return new And(parts);
    }

    private Node term(int depth) {
        skipSpace();
        if (peek('(')) {
            pos++;
            Node inner = or(depth + 1);
            skipSpace();
            if (!peek(')')) {
                throw error("expected ')'");
            }
            pos++;
            return inner;
        }
        return comparison();
    }

    private Comparison comparison() {
        int start = pos;
        while (pos < text.length() && isPlainChar(text.charAt(pos))) {
            pos++;
        }
        String selector = text.substring(start, pos);
        if (selector.isEmpty()) {
            throw error(pos < text.length() ? "expected a field name before '" + text.charAt(pos) + "'"
                    : "expected a field name");
        }
        checks.selector(selector, start);
        String op = operator();
        boolean list = peek('(');
        checks.argument(op, list, pos);
        if (!list) {
            return new Comparison(selector, op, List.of(value()));
        }
        pos++;
        List<String> values = new ArrayList<>();
        values.add(value());
        while (peek(',')) {
            pos++;
            values.add(value());
        }
        if (!peek(')')) {
            throw error("expected ')' to close the list of values");
        }
        pos++;
        return new Comparison(selector, op, values);
    }

    private String operator() {
        int start = pos;
        if (text.startsWith("==", pos) || text.startsWith("!=", pos)) {
            pos += 2;
            return text.substring(start, pos);
        }
        if (peek('=')) {
            int end = text.indexOf('=', pos + 1);
            if (end > pos + 1) {
                String op = text.substring(pos, end + 1).toLowerCase(Locale.ROOT);
                if (OPERATORS.contains(op)) {
                    pos = end + 1;
                    return op;
                }
                throw new SyntaxException("unknown operator '" + text.substring(pos, end + 1) + "' at position "
                        + (pos + 1) + "; use == != =lt= =le= =gt= =ge= =in= =out=");
            }
        }
        throw error("expected an operator (== != =in= =out= =lt= =le= =gt= =ge=)");
    }

    private String value() {
        if (peek('"') || peek('\'')) {
            char quote = text.charAt(pos++);
            StringBuilder out = new StringBuilder();
            while (pos < text.length() && text.charAt(pos) != quote) {
                if (text.charAt(pos) == '\\') {
                    pos++; // the escaped character is taken as it is
                }
                if (pos < text.length()) {
                    out.append(text.charAt(pos));
                }
                pos++;
            }
            if (pos >= text.length()) {
                throw error("a quoted value is not closed");
            }
            pos++;
            return out.toString();
        }
        int start = pos;
        while (pos < text.length() && isPlainChar(text.charAt(pos))) {
            pos++;
        }
        if (pos == start) {
            throw error("expected a value");
        }
        return text.substring(start, pos);
    }

    /** A character of a bare selector or value: jirutka's parser reserves these outside quotes. */
    private static boolean isPlainChar(char c) {
        return !(c == '(' || c == ')' || c == ',' || c == ';' || c == '"' || c == '\'' || c == '=' || c == '<'
                || c == '>' || c == '!' || c == '~' || Character.isWhitespace(c));
    }

    private boolean peek(char c) {
        return pos < text.length() && text.charAt(pos) == c;
    }

    private void skipSpace() {
        while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
            pos++;
        }
    }

    private SyntaxException error(String what) {
        return SyntaxException.at(what, pos);
    }
}
