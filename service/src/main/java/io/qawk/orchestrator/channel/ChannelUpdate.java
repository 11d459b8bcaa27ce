package io.qawk.orchestrator.channel;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.qawk.orchestrator.common.FieldErrors;

import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * A change of a channel as {@code PUT} and {@code PATCH} give it: the fields given (a field left out keeps its value,
 * inside {@code orchestrator} and {@code devices} too) and the fields cleared by {@code null}. Only what may be empty
 * can be cleared: {@code promotesTo} (promotes nowhere), {@code approval} ({@code none}), {@code orchestrator.centres}
 * (every centre), {@code orchestrator.metricGate} and {@code orchestrator.windows} (none); {@code distributionSetId} and
 * {@code manifestId} null release nothing. Any other {@code null} is a 400 naming the field.
 */
record ChannelUpdate(ChannelRequest request, Set<String> cleared) {

    static final Set<String> CLEARABLE = Set.of("promotesTo", "approval", "orchestrator.centres",
            "orchestrator.metricGate", "orchestrator.windows", "distributionSetId", "manifestId");

    /** {@code body}: checked already as a {@link ChannelRequest} (known fields, right types). */
    static ChannelUpdate of(ObjectMapper json, ObjectNode body) {
        ObjectNode given = body.deepCopy();
        Set<String> cleared = new LinkedHashSet<>();
        FieldErrors errors = new FieldErrors();
        nulls(given, "", cleared, errors);
        errors.throwIfAny();
        try {
            return new ChannelUpdate(json.treeToValue(given, ChannelRequest.class), Set.copyOf(cleared));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a checked channel body cannot be read without its nulls", e);
        }
    }

    /** Takes the nulls out of {@code node} (and of {@code orchestrator}, {@code devices}), noting what they clear. */
    private static void nulls(ObjectNode node, String prefix, Set<String> cleared, FieldErrors errors) {
        Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> e = fields.next();
            String field = prefix + e.getKey();
            if (e.getValue().isNull()) {
                if (CLEARABLE.contains(field)) {
                    cleared.add(field);
                } else {
                    errors.add(field, "cannot be cleared (null); give a value, or leave it out to keep it");
                }
                fields.remove();
            } else if (prefix.isEmpty() && e.getValue().isObject()
                    && (e.getKey().equals("orchestrator") || e.getKey().equals("devices"))) {
                nulls((ObjectNode) e.getValue(), field + ".", cleared, errors);
            }
        }
    }

    boolean clears(String field) {
        return cleared.contains(field);
    }
}
