package io.qawk.orchestrator.common;

import java.util.Locale;
import java.util.Optional;

/**
 * Whether a deployment of a system type or channel needs four eyes (issue 42): {@code required}, an approver other
 * than its creator approves it before it can start; {@code none}, the default, it can start as soon as it is made.
 */
public enum Approval {
    NONE, REQUIRED;

    /** The API's and the YAML's word: {@code none} or {@code required}. */
    public String word() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Approval of(boolean required) {
        return required ? REQUIRED : NONE;
    }

    /** The value for the API's word; empty for any other text. */
    public static Optional<Approval> parse(String word) {
        for (Approval a : values()) {
            if (a.word().equals(word)) {
                return Optional.of(a);
            }
        }
        return Optional.empty();
    }

    /** The field error's words for a word that is neither. */
    public static String invalid(String word) {
        return "must be none or required (got \"" + (word.length() > 40 ? word.substring(0, 40) + "…" : word) + "\")";
    }
}
