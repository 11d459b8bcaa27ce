package io.qawk.orchestrator.common;

import io.qawk.orchestrator.query.TargetQuerySyntax;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/** Collects every problem of a request before answering, so the caller sees all of them at once. */
public final class FieldErrors {

    /** Names operators give things (system types, manifests, channels): readable, safe in URLs, logs and queries. */
    public static final Pattern NAME = Pattern.compile("[\\p{L}\\p{N}][\\p{L}\\p{N} _.:\\-]{0,127}");
    public static final String NAME_RULE =
            "must start with a letter or digit and hold only letters, digits, spaces, '_', '-', '.', ':'";

    private final List<FieldError> errors = new ArrayList<>();

    public FieldErrors add(String field, String message) {
        errors.add(new FieldError(field, message));
        return this;
    }

    /** Adds the error when {@code ok} is false; returns {@code ok}. */
    public boolean check(boolean ok, String field, String message) {
        if (!ok) {
            add(field, message);
        }
        return ok;
    }

    /**
     * A whole number given as text (a query parameter): {@code fallback} when absent or blank; when it is not a whole
     * number, the error {@code must be a whole number (got "abc")} and {@code fallback}.
     */
    public int whole(String value, String field, int fallback) {
        if (value == null || value.isBlank()) {
            return fallback;
        }
        try {
            return Integer.parseInt(value.strip());
        } catch (NumberFormatException e) {
            add(field, "must be a whole number (got \"" + (value.length() > 20 ? value.substring(0, 20) + "…" : value)
                    + "\")");
            return fallback;
        }
    }

    /** A required text: present, not blank, at most {@code max} characters. */
    public boolean text(String value, String field, int max) {
        if (value == null || value.isBlank()) {
            add(field, "is required");
            return false;
        }
        return check(value.length() <= max, field, "must be at most " + max + " characters (got " + value.length() + ")");
    }

    /** A required name: present, at most 128 characters, of the form {@link #NAME}. */
    public boolean name(String value, String field) {
        return text(value, field, 128) && check(NAME.matcher(value).matches(), field, NAME_RULE);
    }

    /**
     * An optional target query (a manifest's {@code verify}, a system type's {@code health}): absent is fine; given, it
     * must be a query hawkBit can run, checked with the grammar a component's {@code match} is checked with.
     */
    public boolean optionalQuery(String query, String field, String example) {
        if (query == null) {
            return true;
        }
        if (query.isBlank()) {
            add(field, "must be a target query such as " + example + ", or left out");
            return false;
        }
        Optional<String> problem = TargetQuerySyntax.problem(query);
        problem.ifPresent(p -> add(field, p));
        return problem.isEmpty();
    }

    public boolean isEmpty() {
        return errors.isEmpty();
    }

    public void throwIfAny() {
        if (!errors.isEmpty()) {
            throw new InvalidRequestException(errors);
        }
    }
}
