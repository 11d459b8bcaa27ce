package io.qawk.orchestrator.analysis;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A metric gate's query with its placeholders: {@code {system}} and {@code {centre}} are replaced by a system's key
 * and centre, escaped for the PromQL string they stand in, so that no device-reported value (a system key is an
 * attribute a device sends) can end the string, add a matcher or change the query.
 * <p>
 * Where a placeholder may stand: inside a double- or single-quoted string only ({@code system="{system}"}); outside a
 * string it could become PromQL itself, and a backtick string has no escapes. Inside the string of a regex matcher
 * ({@code system=~"{system}"}) the value is regex-quoted first, so {@code lane.07} matches only {@code lane.07}. An
 * unknown {@code {word}} inside a (non-regex) string, such as {@code {center}}, is refused as a typo: it would match
 * nothing. Placeholders in a {@code #} comment are left as they are.
 */
final class PromqlTemplate {

    static final String SYSTEM = "{system}";
    static final String CENTRE = "{centre}";
    static final int MAX_LENGTH = 2000;

    private static final Pattern WORD_IN_BRACES = Pattern.compile("\\{[A-Za-z_][A-Za-z0-9_]*}");
    private static final String REGEX_SPECIALS = "\\.+*?()|[]{}^$";

    private PromqlTemplate() {
    }

    /** What was made of a template: the filled-in query, or the first problem that keeps it from being filled in. */
    private record Scan(String query, String problem) {
    }

    /** The first problem of the template (a placeholder where it cannot be escaped, a string never closed), or empty. */
    static Optional<String> problem(String template) {
        return Optional.ofNullable(scan(template, "", "").problem());
    }

    /** The query for one system; {@code centre} null (a system with no centre) stands as the empty string. */
    static String fill(String template, String system, String centre) {
        Scan s = scan(template, system == null ? "" : system, centre == null ? "" : centre);
        if (s.problem() != null) {
            throw new IllegalArgumentException("the metric gate's query cannot be filled in: " + s.problem());
        }
        return s.query();
    }

    private static Scan scan(String t, String system, String centre) {
        StringBuilder out = new StringBuilder(t.length() + system.length() + centre.length());
        int n = t.length();
        int i = 0;
        while (i < n) {
            char c = t.charAt(i);
            if (c == '#') { // a comment, to the end of the line
                int end = t.indexOf('\n', i);
                end = end < 0 ? n : end;
                out.append(t, i, end);
                i = end;
            } else if (c == '"' || c == '\'' || c == '`') {
                boolean regex = afterRegexMatcher(t, i);
                out.append(c);
                int j = i + 1;
                while (j < n && t.charAt(j) != c) {
                    char d = t.charAt(j);
                    String placeholder = placeholderAt(t, j);
                    if (c != '`' && d == '\\' && j + 1 < n) {
                        out.append(d).append(t.charAt(j + 1));
                        j += 2;
                    } else if (placeholder != null) {
                        if (c == '`') {
                            return new Scan(null, placeholder + " cannot stand inside a `backtick` string, which has "
                                    + "no escapes; use double quotes: system=\"" + SYSTEM + "\"");
                        }
                        String value = placeholder.equals(SYSTEM) ? system : centre;
                        out.append(escape(regex ? quoteRegex(value) : value, c));
                        j += placeholder.length();
                    } else {
                        if (d == '{' && !regex && c != '`') {
                            Matcher m = WORD_IN_BRACES.matcher(t).region(j, n);
                            if (m.lookingAt()) {
                                return new Scan(null, "has the unknown placeholder " + m.group() + "; only " + SYSTEM
                                        + " and " + CENTRE + " are filled in");
                            }
                        }
                        out.append(d);
                        j++;
                    }
                }
                if (j >= n) {
                    return new Scan(null, "has a string that is never closed (the " + c + " at position " + (i + 1)
                            + ")");
                }
                out.append(c);
                i = j + 1;
            } else {
                String placeholder = placeholderAt(t, i);
                if (placeholder != null) {
                    return new Scan(null, placeholder + " must stand inside a quoted label value, e.g. "
                            + placeholder.substring(1, placeholder.length() - 1) + "=\"" + placeholder + "\"");
                }
                out.append(c);
                i++;
            }
        }
        return new Scan(out.toString(), null);
    }

    private static String placeholderAt(String t, int i) {
        return t.startsWith(SYSTEM, i) ? SYSTEM : t.startsWith(CENTRE, i) ? CENTRE : null;
    }

    /** Whether the string opening at {@code quote} is the value of {@code =~} or {@code !~}. */
    private static boolean afterRegexMatcher(String t, int quote) {
        int j = quote - 1;
        while (j >= 0 && Character.isWhitespace(t.charAt(j))) {
            j--;
        }
        return j >= 1 && t.charAt(j) == '~' && (t.charAt(j - 1) == '=' || t.charAt(j - 1) == '!');
    }

    /** {@code value} inside a PromQL string quoted with {@code quote}: Go's escapes, which PromQL strings use. */
    static String escape(String value, char quote) {
        StringBuilder sb = new StringBuilder(value.length() + 8);
        for (int k = 0; k < value.length(); k++) {
            char ch = value.charAt(k);
            if (ch == '\\' || ch == quote) {
                sb.append('\\').append(ch);
            } else if (ch == '\n') {
                sb.append("\\n");
            } else if (ch == '\r') {
                sb.append("\\r");
            } else if (ch == '\t') {
                sb.append("\\t");
            } else if (ch < 0x20 || ch == 0x7f) {
                sb.append(String.format("\\x%02x", (int) ch));
            } else {
                sb.append(ch);
            }
        }
        return sb.toString();
    }

    /** {@code value} as a regular expression (RE2, as Prometheus uses) that matches exactly it. */
    static String quoteRegex(String value) {
        StringBuilder sb = new StringBuilder(value.length() + 8);
        for (int k = 0; k < value.length(); k++) {
            char ch = value.charAt(k);
            if (REGEX_SPECIALS.indexOf(ch) >= 0) {
                sb.append('\\');
            }
            sb.append(ch);
        }
        return sb.toString();
    }
}
