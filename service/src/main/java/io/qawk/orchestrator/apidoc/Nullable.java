package io.qawk.orchestrator.apidoc;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * An element of a list or map that may be null in an answer ({@code List<@Nullable String>}): {@link ContractFilter}
 * declares its schema nullable. A field itself needs no mark: a non-primitive field without {@code @NotNull} is
 * nullable already.
 */
@Target(ElementType.TYPE_USE)
@Retention(RetentionPolicy.RUNTIME)
public @interface Nullable {
}
