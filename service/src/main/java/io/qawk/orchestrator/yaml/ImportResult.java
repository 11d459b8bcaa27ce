package io.qawk.orchestrator.yaml;

import java.util.List;

/**
 * What an import did: {@code created}, {@code updated} or {@code unchanged}; the id and name of the object; and the
 * YAML paths of keys that were accepted but mean nothing to Qawk.
 */
public record ImportResult(String result, long id, String name, List<String> ignored) {

    public static final String CREATED = "created";
    public static final String UPDATED = "updated";
    public static final String UNCHANGED = "unchanged";

    public boolean created() {
        return CREATED.equals(result);
    }
}
