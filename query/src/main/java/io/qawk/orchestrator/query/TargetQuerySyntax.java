package io.qawk.orchestrator.query;

import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Checks that a hawkBit target query (FIQL/RSQL) is well formed and names only target fields hawkBit knows,
 * before it is stored, so an operator learns at once where a query is wrong instead of from a failing sync.
 *
 * <p>Grammar (hawkBit's RSQL): {@code or := and (',' and)*}, {@code and := term (';' term)*},
 * {@code term := '(' or ')' | selector op argument}, {@code op := '==' | '!=' | '=' letters '='},
 * {@code argument := value | '(' value (',' value)* ')'}, values bare or in single/double quotes.
 */
public final class TargetQuerySyntax {

    /** Fields hawkBit accepts in target queries across versions (0.3.x … 1.x), lower case. */
    static final Set<String> FIELDS = Set.of("id", "controllerid", "name", "description", "updatestatus",
            "ipaddress", "address", "tag", "installedds.name", "installedds.version", "assignedds.name",
            "assignedds.version", "lastcontrollerrequestat", "lastmodifiedat", "createdat", "targettype",
            "targettype.key", "targettype.name", "group", "type");
    static final Set<String> OPERATORS = Set.of("==", "!=", "=lt=", "=le=", "=gt=", "=ge=", "=in=", "=out=",
            "=like=", "=notlike=", "=is=", "=not=");
    static final int MAX_LENGTH = 2000;

    private final String text;
    private int pos;

    private TargetQuerySyntax(String text) {
        this.text = text;
    }

    /** Returns what is wrong with the query and where, or empty when it is valid. */
    public static Optional<String> problem(String query) {
        if (query == null || query.isBlank()) {
            return Optional.of("is required");
        }
        if (query.length() > MAX_LENGTH) {
            return Optional.of("must be at most " + MAX_LENGTH + " characters");
        }
        try {
            TargetQuerySyntax p = new TargetQuerySyntax(query);
            p.or(0);
            p.skipSpace();
            if (p.pos < query.length()) {
                char c = query.charAt(p.pos);
                throw p.error("unexpected '" + c + "'" + ("=<>!~".indexOf(c) >= 0
                        ? " (a value holding = < > ! or ~ must be quoted, e.g. \"a!b\")" : ""));
            }
            return Optional.empty();
        } catch (SyntaxError e) {
            return Optional.of(e.getMessage());
        }
    }

    private void or(int depth) {
        if (depth > 20) {
            throw error("nesting is too deep");
        }
        and(depth);
        while (peek(',')) {
            pos++;
            and(depth);
        }
    }

    private void and(int depth) {
        term(depth);
        while (peek(';')) {
            pos++;
            term(depth);
        }
    }

    private void term(int depth) {
        skipSpace();
        if (peek('(')) {
            pos++;
            or(depth + 1);
            skipSpace();
            if (!peek(')')) {
                throw error("expected ')'");
            }
            pos++;
            return;
        }
        comparison();
    }

    private void comparison() {
        int start = pos;
        while (pos < text.length() && isSelectorChar(text.charAt(pos))) {
            pos++;
        }
        String selector = text.substring(start, pos).trim();
        if (selector.isEmpty()) {
            throw error(pos < text.length() ? "expected a field name before '" + text.charAt(pos) + "'" : "expected a field name");
        }
        checkField(selector, start);
        String op = operator();
        argument(op);
    }

    private void checkField(String selector, int start) {
        String lower = selector.toLowerCase(Locale.ROOT);
        if (lower.startsWith("attribute.") || lower.startsWith("metadata.")) {
            String key = selector.substring(selector.indexOf('.') + 1);
            if (key.isEmpty()) {
                throw new SyntaxError("'" + selector + "' at position " + (start + 1) + " needs a key after the dot");
            }
            return;
        }
        if (!FIELDS.contains(lower)) {
            throw new SyntaxError("unknown field '" + selector + "' at position " + (start + 1)
                    + "; use attribute.<key>, metadata.<key>, controllerId, name, updateStatus, tag, "
                    + "installedDS.name|version, assignedDS.name|version, lastControllerRequestAt, createdAt");
        }
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
                throw new SyntaxError("unknown operator '" + text.substring(pos, end + 1) + "' at position " + (pos + 1)
                        + "; use == != =lt= =le= =gt= =ge= =in= =out=");
            }
        }
        throw error("expected an operator (== != =in= =out= =lt= =le= =gt= =ge=)");
    }

    private void argument(String op) {
        if (peek('(')) {
            pos++;
            value();
            while (peek(',')) {
                pos++;
                value();
            }
            if (!peek(')')) {
                throw error("expected ')' to close the list of values");
            }
            pos++;
            return;
        }
        if (op.equals("=in=") || op.equals("=out=")) {
            throw error(op + " needs a list of values in parentheses");
        }
        value();
    }

    private void value() {
        if (peek('"') || peek('\'')) {
            char quote = text.charAt(pos++);
            while (pos < text.length() && text.charAt(pos) != quote) {
                if (text.charAt(pos) == '\\') {
                    pos++;
                }
                pos++;
            }
            if (pos >= text.length()) {
                throw error("a quoted value is not closed");
            }
            pos++;
            return;
        }
        int start = pos;
        while (pos < text.length() && isValueChar(text.charAt(pos))) {
            pos++;
        }
        if (pos == start) {
            throw error("expected a value");
        }
    }

    private static boolean isSelectorChar(char c) {
        return !(c == '=' || c == '!' || c == '~' || c == '<' || c == '>' || c == '(' || c == ')' || c == ','
                || c == ';' || c == '"' || c == '\'' || Character.isWhitespace(c));
    }

    /** hawkBit's parser (jirutka rsql-parser) also reserves = < > ! ~ outside quotes. */
    private static boolean isValueChar(char c) {
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

    private SyntaxError error(String what) {
        return new SyntaxError(what + " at position " + (pos + 1));
    }

    private static final class SyntaxError extends RuntimeException {
        SyntaxError(String message) {
            super(message, null, false, false);
        }
    }
}
