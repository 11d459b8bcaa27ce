package io.qawk.orchestrator.common;

import java.util.List;

/** The request is malformed or breaks a rule; answered 400 with every field error found. */
public class InvalidRequestException extends RuntimeException {

    private final transient List<FieldError> errors;

    public InvalidRequestException(List<FieldError> errors) {
        super(summary(errors));
        this.errors = List.copyOf(errors);
    }

    public InvalidRequestException(String field, String message) {
        this(List.of(new FieldError(field, message)));
    }

    public List<FieldError> errors() {
        return errors;
    }

    private static String summary(List<FieldError> errors) {
        if (errors.size() == 1) {
            FieldError e = errors.get(0);
            return e.field() == null || e.field().isEmpty() ? e.message() : e.field() + ": " + e.message();
        }
        return errors.size() + " fields are invalid";
    }
}
