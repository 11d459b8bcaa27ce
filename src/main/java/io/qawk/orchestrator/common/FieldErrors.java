package io.qawk.orchestrator.common;

import java.util.ArrayList;
import java.util.List;

/** Collects every problem of a request before answering, so the caller sees all of them at once. */
public final class FieldErrors {

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

    /** A required text: present, not blank, at most {@code max} characters. */
    public boolean text(String value, String field, int max) {
        if (value == null || value.isBlank()) {
            add(field, "is required");
            return false;
        }
        return check(value.length() <= max, field, "must be at most " + max + " characters (got " + value.length() + ")");
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
