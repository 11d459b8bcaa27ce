package io.qawk.orchestrator.yaml;

import com.fasterxml.jackson.databind.JsonNode;
import io.qawk.orchestrator.common.FieldErrors;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads the values of one parsed document by hand, collecting every problem (with its YAML path and position) and
 * every key that is accepted but has no meaning for Qawk.
 */
final class YamlReading {

    static final String API_VERSION = "mender/v1";

    final YamlDocument doc;
    final FieldErrors errors = new FieldErrors();
    final List<String> ignored = new ArrayList<>();

    YamlReading(YamlDocument doc) {
        this.doc = doc;
    }

    void error(String path, String message) {
        errors.add(path, message + doc.at(path));
    }

    /** Checks the document is a mapping of this {@code kind} and {@code api_version: mender/v1}. */
    void header(String kind, String otherEndpoint) {
        JsonNode root = doc.root();
        if (!root.isObject()) {
            errors.add("", "the document must be a mapping (api_version: " + API_VERSION + ", kind: " + kind
                    + ", …), not " + describe(root));
            return;
        }
        String version = text(root, "api_version", "", true);
        if (version != null && !API_VERSION.equals(version)) {
            error("api_version", "must be " + API_VERSION + " (got '" + version + "')");
        }
        String actual = text(root, "kind", "", true);
        if (actual != null && !kind.equals(actual)) {
            if (otherEndpoint != null && ("topology".equals(actual) || "manifest".equals(actual))) {
                error("kind", "is '" + actual + "', but this endpoint imports kind: " + kind + " (send a " + actual
                        + " to " + otherEndpoint + ")");
            } else {
                error("kind", "must be " + kind + " (got '" + actual + "')");
            }
        }
    }

    /** Refuses the keys of the mapping {@code node} not in {@code known}; records those in {@code ignoredKeys} as ignored. */
    void keys(JsonNode node, String path, Set<String> known, Set<String> ignoredKeys, String what) {
        Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
        while (fields.hasNext()) {
            String key = fields.next().getKey();
            String at = YamlPaths.key(path, key);
            if (ignoredKeys.contains(key)) {
                ignored.add(at);
            } else if (!known.contains(key)) {
                error(at, "is not a key of " + what + " (known keys: " + String.join(", ", known)
                        + (ignoredKeys.isEmpty() ? "" : "; accepted and ignored: " + String.join(", ", ignoredKeys))
                        + ")");
            }
        }
    }

    /** A text value of {@code key}; null when missing or wrong (reported when required or wrong). */
    String text(JsonNode parent, String key, String parentPath, boolean required) {
        return text(parent, key, parentPath, required ? "is required" : null);
    }

    /**
     * A text value of {@code key}; null when missing or wrong. A missing key is reported with {@code missingMessage}
     * unless that is null (optional key).
     */
    String text(JsonNode parent, String key, String parentPath, String missingMessage) {
        String at = YamlPaths.key(parentPath, key);
        JsonNode value = parent.get(key);
        if (value == null) {
            if (missingMessage != null) {
                missing(at, parentPath, missingMessage);
            }
            return null;
        }
        if (value.isNull() || value.isTextual() && value.asText().isBlank()) {
            if (missingMessage != null) {
                error(at, "must not be empty");
            }
            return null;
        }
        if (!value.isTextual()) {
            error(at, "must be text, not " + describe(value)
                    + (value.isValueNode() ? " (quote it if it is meant as text)" : ""));
            return null;
        }
        return value.asText();
    }

    /** Reports a required key that is missing; the position is that of the mapping it is missing from. */
    void missing(String at, String parentPath, String message) {
        YamlDocument.Position where = parentPath.isEmpty() ? null : doc.positions().get(parentPath);
        errors.add(at, message + (where == null ? "" : " (missing from the mapping at " + where + ")"));
    }

    static String describe(JsonNode value) {
        if (value.isTextual()) {
            return "the text '" + abbreviate(value.asText()) + "'";
        }
        if (value.isIntegralNumber() || value.isFloatingPointNumber()) {
            return "the number " + value.asText();
        }
        if (value.isBoolean()) {
            return value.asText();
        }
        if (value.isNull()) {
            return "nothing (null)";
        }
        if (value.isArray()) {
            return "a list";
        }
        if (value.isObject()) {
            return "a mapping";
        }
        return value.getNodeType().name().toLowerCase();
    }

    static String abbreviate(String s) {
        return s.length() > 60 ? s.substring(0, 60) + "…" : s;
    }
}
