package io.qawk.orchestrator.common;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * An enum stored by name ({@code @Enumerated(STRING)}) written into native SQL from the enum itself, so a state
 * renamed or added in Java cannot leave a copy of its old name behind in a query.
 */
public final class SqlEnums {

    private SqlEnums() {
    }

    /** {@code 'RUNNING'}. */
    public static String literal(Enum<?> value) {
        return "'" + value.name() + "'";
    }

    /** {@code ('RUNNING', 'VERIFYING')}, for {@code in}. */
    public static String list(Enum<?>... values) {
        if (values.length == 0) {
            throw new IllegalArgumentException("an empty list matches nothing in SQL's in (…)");
        }
        return Arrays.stream(values).map(SqlEnums::literal).collect(Collectors.joining(", ", "(", ")"));
    }
}
