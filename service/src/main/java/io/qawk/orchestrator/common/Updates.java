package io.qawk.orchestrator.common;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * How an update of a stored object reads its body, the same for every resource that has one, so that no update drops a
 * setting it does not name (issue 56).
 *
 * <ul>
 *   <li>{@code PUT} (hawkBit's convention): a field the body leaves out keeps its stored value; a field given, {@code null}
 *   included, is taken as given ({@code null} clears it, where it may be empty).</li>
 *   <li>{@code PATCH} with {@code application/merge-patch+json}: RFC 7396 onto the stored object's request shape; an
 *   object merges into the stored one, {@code null} removes the field (clears it), anything else replaces it.</li>
 *   <li>Keyed lists (a system type's or a manifest's {@code components}, keyed by {@code componentType}): a list given
 *   replaces the stored one, but each element whose key matches a stored element keeps the fields it leaves out (a
 *   component sent again without its {@code health} query keeps it; {@code "health": null} clears it).</li>
 * </ul>
 *
 * The result is the whole request as a create would take it, validated and applied as a {@code PUT} is. Pure.
 */
public final class Updates {

    /** The media type of JSON Merge Patch (RFC 7396). */
    public static final String MERGE_PATCH = "application/merge-patch+json";

    private Updates() {
    }

    /**
     * Reads the body alone as the request it stands for, so that an unknown field or a value of the wrong type is the
     * same 400 a create gives, before anything is merged. A body that is not a JSON object is a 400.
     */
    public static ObjectNode checked(ObjectMapper json, JsonNode body, Class<?> requestType) throws JsonProcessingException {
        if (body == null || body.isNull() || body.isMissingNode()) {
            throw new InvalidRequestException("", "a JSON object is required");
        }
        if (!body.isObject()) {
            throw new InvalidRequestException("", "must be a JSON object (got " + kind(body) + ")");
        }
        json.treeToValue(body, requestType);
        return (ObjectNode) body;
    }

    /** A {@code PUT}: the stored object's request shape with the fields the body gives, as given. */
    public static ObjectNode put(ObjectNode stored, ObjectNode body, Map<String, String> keyedLists) {
        ObjectNode result = stored.deepCopy();
        body.fields().forEachRemaining(e -> result.set(e.getKey(), e.getValue().deepCopy()));
        keep(stored, body, result, keyedLists);
        return result;
    }

    /** A {@code PATCH}: the patch merged into the stored object's request shape by RFC 7396. */
    public static ObjectNode patch(ObjectNode stored, ObjectNode patch, Map<String, String> keyedLists) {
        ObjectNode result = (ObjectNode) merge(stored.deepCopy(), patch);
        keep(stored, patch, result, keyedLists);
        return result;
    }

    /** RFC 7396, section 2: MergePatch(Target, Patch). */
    public static JsonNode merge(JsonNode target, JsonNode patch) {
        if (!patch.isObject()) {
            return patch.deepCopy();
        }
        ObjectNode result = target != null && target.isObject() ? (ObjectNode) target : ((ObjectNode) patch).objectNode();
        Iterator<Map.Entry<String, JsonNode>> fields = patch.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> e = fields.next();
            if (e.getValue().isNull()) {
                result.remove(e.getKey());
            } else {
                result.set(e.getKey(), merge(result.get(e.getKey()), e.getValue()));
            }
        }
        return result;
    }

    /** Elements of a keyed list the body gives take, from the stored element with the same key, the fields they leave out. */
    private static void keep(ObjectNode stored, ObjectNode body, ObjectNode result, Map<String, String> keyedLists) {
        keyedLists.forEach((list, key) -> {
            if (!(body.get(list) instanceof ArrayNode) || !(stored.get(list) instanceof ArrayNode before)
                    || !(result.get(list) instanceof ArrayNode after)) {
                return;
            }
            Map<String, ObjectNode> byKey = new HashMap<>();
            before.forEach(e -> {
                if (e.isObject() && e.path(key).isTextual()) {
                    byKey.put(e.get(key).asText(), (ObjectNode) e);
                }
            });
            after.forEach(e -> {
                if (e.isObject() && e.path(key).isTextual() && byKey.containsKey(e.get(key).asText())) {
                    ObjectNode element = (ObjectNode) e;
                    byKey.get(e.get(key).asText()).fields().forEachRemaining(f -> {
                        if (!element.has(f.getKey())) {
                            element.set(f.getKey(), f.getValue().deepCopy());
                        }
                    });
                }
            });
        });
    }

    private static String kind(JsonNode node) {
        return node.isArray() ? "an array" : node.isTextual() ? "a string" : node.isNumber() ? "a number"
                : node.isBoolean() ? "true or false" : "null";
    }
}
