package io.qawk.orchestrator.common;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;

/**
 * A text value of a request body that cannot be stored faithfully: it holds U+0000 (which PostgreSQL refuses in
 * text) or a lone UTF-16 surrogate (which is no character at all and would be stored as '?'). Answered 400 with the
 * field's JSON path.
 */
public class UnstorableTextException extends MismatchedInputException {

    private final String problem;

    public UnstorableTextException(JsonParser p, String problem) {
        super(p, problem, String.class);
        this.problem = problem;
    }

    /** What is wrong with the text, without the parser location. */
    public String problem() {
        return problem;
    }

    /** Why {@code text} cannot be stored, or null when it can. */
    public static String whyUnstorable(String text) {
        if (text == null) {
            return null;
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\u0000') {
                return "must not contain the NUL character (U+0000)";
            }
            if (Character.isHighSurrogate(c)) {
                if (i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                    i++;
                    continue;
                }
                return "is not valid Unicode: it holds a lone surrogate (U+" + Integer.toHexString(c).toUpperCase() + ")";
            }
            if (Character.isLowSurrogate(c)) {
                return "is not valid Unicode: it holds a lone surrogate (U+" + Integer.toHexString(c).toUpperCase() + ")";
            }
        }
        return null;
    }
}
