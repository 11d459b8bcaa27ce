package io.qawk.orchestrator.common;

/** One thing wrong with a request: where ({@code field}, a JSON path such as {@code components[1].match}) and what. */
public record FieldError(String field, String message) {
}
