package io.qawk.orchestrator.deployment.plan;

import io.qawk.orchestrator.query.Rsql;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What a device reports instead of what its verification query asks for, in the words of a run's reason:
 * {@code reports 1.9} for a query over one attribute, {@code reports app_version=1.9, no lane_state} over several.
 * Pure: the query's attribute keys come from the one grammar ({@link Rsql}), the values from the attributes read.
 */
public final class VerifyWords {

    private static final String ATTRIBUTE = "attribute.";

    private VerifyWords() {
    }

    /** The attribute keys {@code query} asks about, in order, once each; empty when it asks about none. */
    static List<String> attributeKeys(String query) {
        Set<String> keys = new LinkedHashSet<>();
        try {
            for (Rsql.Comparison c : Rsql.comparisons(Rsql.parse(query))) {
                if (c.selector().toLowerCase(Locale.ROOT).startsWith(ATTRIBUTE)) {
                    keys.add(c.selector().substring(ATTRIBUTE.length()));
                }
            }
        } catch (Rsql.SyntaxException e) {
            return List.of(); // stored queries were checked when saved; an older one says nothing here
        }
        return List.copyOf(keys);
    }

    /** The words, or null when the query asks about no attribute (then the query alone says enough). */
    public static String reports(String query, Map<String, String> attributes) {
        List<String> keys = attributeKeys(query);
        if (keys.isEmpty()) {
            return null;
        }
        List<String> parts = new ArrayList<>();
        for (String key : keys) {
            String value = valueOf(key, attributes);
            if (keys.size() == 1) {
                return value == null ? "reports no " + key : "reports " + value;
            }
            parts.add(value == null ? "no " + key : key + "=" + value);
        }
        return "reports " + String.join(", ", parts);
    }

    /** hawkBit compares attribute keys without case: so does this. */
    private static String valueOf(String key, Map<String, String> attributes) {
        String exact = attributes.get(key);
        if (exact != null) {
            return exact;
        }
        return attributes.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(key)).map(Map.Entry::getValue)
                .findFirst().orElse(null);
    }
}
