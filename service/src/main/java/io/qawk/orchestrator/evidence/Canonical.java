package io.qawk.orchestrator.evidence;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * The canonical form of an evidence record, the bytes its digest is taken over: JSON in UTF-8 with no whitespace
 * between tokens, every object's keys sorted (by Java's {@code String} order, which for the record's ASCII keys is
 * byte order), arrays in their order, numbers as integers, times as ISO-8601 UTC strings, and no {@code digest}
 * field. {@code jq -cS 'del(.digest)'} gives the same text for a record served by the API. Pure.
 */
public final class Canonical {

    private static final ObjectMapper PLAIN = new ObjectMapper();

    private Canonical() {
    }

    /** The canonical text of {@code record} (its {@code digest} field left out). */
    public static String text(JsonNode record) {
        JsonNode sorted = sorted(record);
        if (sorted instanceof ObjectNode o) {
            o.remove("digest");
        }
        try {
            return PLAIN.writeValueAsString(sorted);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("An evidence record could not be written as JSON", e);
        }
    }

    /** The SHA-256 of the text's UTF-8 bytes, in lower-case hex. */
    public static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }

    /** A copy of {@code node} whose objects have their keys in sorted order. */
    static JsonNode sorted(JsonNode node) {
        if (node.isObject()) {
            ObjectNode out = JsonNodeFactory.instance.objectNode();
            List<String> names = new ArrayList<>();
            node.fieldNames().forEachRemaining(names::add);
            names.sort(null);
            names.forEach(n -> out.set(n, sorted(node.get(n))));
            return out;
        }
        if (node.isArray()) {
            ArrayNode out = JsonNodeFactory.instance.arrayNode();
            node.forEach(e -> out.add(sorted(e)));
            return out;
        }
        return node;
    }
}
