package io.qawk.orchestrator.hawkbit;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Builds hawkBit FIQL/RSQL queries from data so that no value can change a query's structure.
 * <p>
 * Every value is double-quoted with {@code \} and {@code "} backslash-escaped (hawkBit's parser, jirutka
 * rsql-parser, unescapes them inside quotes), so {@code , ; ( ) = !} in a value stay part of the value.
 * <p>
 * hawkBit evaluates {@code ==}/{@code !=} on strings as SQL LIKE: {@code *} is a wildcard even inside quotes and
 * cannot be escaped (and {@code _} is a single-character wildcard on some databases). {@link #eq} and {@link #ne}
 * therefore switch to {@code =in=}/{@code =out=}, which compare exactly, when a value holds {@code *} or {@code _}.
 * Use {@link #like} when a wildcard is meant. hawkBit compares strings case-insensitively whatever we send.
 * <p>
 * Field names are not data: they must be plain selectors ({@code letters, digits, . _ -}); anything else is
 * rejected, because a selector cannot be quoted.
 */
public final class Fiql {

    private static final Pattern FIELD = Pattern.compile("[A-Za-z0-9_.\\-]+");

    private Fiql() {
    }

    /** {@code "value"} with {@code \} and {@code "} escaped. */
    public static String quote(String value) {
        Objects.requireNonNull(value, "FIQL value");
        StringBuilder out = new StringBuilder(value.length() + 2).append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\');
            }
            out.append(c);
        }
        return out.append('"').toString();
    }

    /** Exact match: {@code field=="value"}, or {@code field=in=("value")} if the value holds a LIKE wildcard. */
    public static String eq(String field, String value) {
        return hasWildcard(value) ? in(field, List.of(value)) : field(field) + "==" + quote(value);
    }

    /** Exact mismatch: {@code field!="value"}, or {@code field=out=("value")} if the value holds a LIKE wildcard. */
    public static String ne(String field, String value) {
        return hasWildcard(value) ? out(field, List.of(value)) : field(field) + "!=" + quote(value);
    }

    /** Pattern match, {@code *} meaning any characters: {@code field=="pattern"}. */
    public static String like(String field, String pattern) {
        return field(field) + "==" + quote(pattern);
    }

    /** {@code field=in=("a","b")}; exact. At least one value. */
    public static String in(String field, Collection<String> values) {
        return field(field) + "=in=" + list(values);
    }

    /** {@code field=out=("a","b")}; exact. At least one value. */
    public static String out(String field, Collection<String> values) {
        return field(field) + "=out=" + list(values);
    }

    /** {@code field=gt="value"}. */
    public static String gt(String field, Object value) {
        return field(field) + "=gt=" + quote(String.valueOf(value));
    }

    /** {@code field=ge="value"}. */
    public static String ge(String field, Object value) {
        return field(field) + "=ge=" + quote(String.valueOf(value));
    }

    /** {@code field=lt="value"}. */
    public static String lt(String field, Object value) {
        return field(field) + "=lt=" + quote(String.valueOf(value));
    }

    /** {@code field=le="value"}. */
    public static String le(String field, Object value) {
        return field(field) + "=le=" + quote(String.valueOf(value));
    }

    /** Conjunction; null/blank parts are skipped, compound parts parenthesised. Empty result = no filter (null). */
    public static String and(String... parts) {
        return join(";", parts);
    }

    /** Disjunction; null/blank parts are skipped, compound parts parenthesised. Empty result = no filter (null). */
    public static String or(String... parts) {
        return join(",", parts);
    }

    /**
     * Cuts {@code items} into groups small enough for one {@code controllerId=in=(…)} query each: at most
     * {@code maxCount} items, and their ids as a quoted list at most {@code maxEncodedChars} once URL-encoded (hawkBit's
     * Tomcat refuses a request line over 8 KB). Order is kept.
     */
    public static <T> List<List<T>> inChunks(List<T> items, Function<T, String> id, int maxCount,
                                             int maxEncodedChars) {
        List<List<T>> out = new ArrayList<>();
        List<T> current = new ArrayList<>();
        int length = 0;
        for (T item : items) {
            int add = HawkbitClient.encode(quote(id.apply(item))).length() + 3; // and an encoded comma
            if (!current.isEmpty() && (current.size() >= maxCount || length + add > maxEncodedChars)) {
                out.add(current);
                current = new ArrayList<>();
                length = 0;
            }
            current.add(item);
            length += add;
        }
        if (!current.isEmpty()) {
            out.add(current);
        }
        return out;
    }

    /** A selector such as {@code attribute.<key>}; rejects keys that are not plain selectors. */
    public static String field(String field) {
        if (field == null || !FIELD.matcher(field).matches()) {
            throw new IllegalArgumentException("not a plain FIQL field name: " + field);
        }
        return field;
    }

    private static boolean hasWildcard(String value) {
        return value != null && (value.indexOf('*') >= 0 || value.indexOf('_') >= 0);
    }

    private static String list(Collection<String> values) {
        if (values == null || values.isEmpty()) {
            throw new IllegalArgumentException("FIQL =in=/=out= needs at least one value");
        }
        return values.stream().map(Fiql::quote).collect(Collectors.joining(",", "(", ")"));
    }

    private static String join(String operator, String... parts) {
        List<String> kept = new ArrayList<>();
        for (String part : parts) {
            if (part != null && !part.isBlank()) {
                kept.add(part);
            }
        }
        if (kept.isEmpty()) {
            return null;
        }
        if (kept.size() == 1) {
            return kept.get(0);
        }
        return kept.stream().map(p -> "(" + p + ")").collect(Collectors.joining(operator));
    }
}
