package io.qawk.orchestrator.hawkbit;

import java.util.ArrayList;
import java.util.List;

/**
 * A reader of RSQL following the grammar of jirutka rsql-parser (hawkBit's parser), just enough to check what a
 * query built by {@link Fiql} means: the comparisons in order, with unescaped values, and the logical operators.
 */
final class RsqlReader {

    record Comparison(String selector, String operator, List<String> values) {
    }

    /** Comparisons, in order; the query must be consumed completely. */
    static List<Comparison> comparisons(String query) {
        RsqlReader reader = new RsqlReader(query);
        reader.or();
        if (reader.pos != query.length()) {
            throw new IllegalArgumentException("trailing input at " + reader.pos + ": " + query);
        }
        return reader.found;
    }

    /** The logical operators ';' and ',' outside quoted values, in order. */
    static String logicalOperators(String query) {
        RsqlReader reader = new RsqlReader(query);
        reader.or();
        return reader.logic.toString();
    }

    private final String in;
    private int pos;
    private final List<Comparison> found = new ArrayList<>();
    private final StringBuilder logic = new StringBuilder();

    private RsqlReader(String in) {
        this.in = in;
    }

    private void or() {
        and();
        while (peek(',')) {
            pos++;
            logic.append(',');
            and();
        }
    }

    private void and() {
        constraint();
        while (peek(';')) {
            pos++;
            logic.append(';');
            constraint();
        }
    }

    private void constraint() {
        if (peek('(')) {
            pos++;
            logic.append('(');
            or();
            expect(')');
            logic.append(')');
        } else {
            comparison();
        }
    }

    private void comparison() {
        String selector = unreserved();
        if (selector.isEmpty()) {
            throw new IllegalArgumentException("selector expected at " + pos + ": " + in);
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
            operator = in.substring(start, pos);
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
        found.add(new Comparison(selector, operator, values));
    }

    private String value() {
        if (peek('"') || peek('\'')) {
            char quote = in.charAt(pos++);
            StringBuilder out = new StringBuilder();
            while (pos < in.length() && in.charAt(pos) != quote) {
                char c = in.charAt(pos++);
                if (c == '\\') {
                    if (pos >= in.length()) {
                        throw new IllegalArgumentException("dangling escape: " + in);
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
            throw new IllegalArgumentException("value expected at " + pos + ": " + in);
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
            throw new IllegalArgumentException("'" + c + "' expected at " + pos + ": " + in);
        }
        pos++;
    }
}
