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

    /** The record's one part that grows with the deployment, last of its keys, sealed and stored system by system. */
    public static final String SYSTEMS = "systems";

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

    /**
     * The canonical text of a record's head: the record without {@code systems} (and without {@code digest}). Every key
     * of a head sorts before {@code systems}, so the whole record's text is the head's, then its systems ({@link Digest}).
     */
    public static String head(ObjectNode head) {
        head.fieldNames().forEachRemaining(name -> {
            if (name.compareTo(SYSTEMS) >= 0) {
                throw new IllegalArgumentException("'" + name + "' does not sort before '" + SYSTEMS + "': a record's"
                        + " head would not be followed by its systems in the canonical text");
            }
        });
        return text(head);
    }

    /**
     * The SHA-256 of a whole record's canonical text, taken from its head's text ({@link #head}) and then each
     * system's canonical text in order, without the whole text in memory: the same digest as {@link #sha256} of
     * {@link #text} of the whole record.
     */
    public static final class Digest {
        private final MessageDigest sha;
        private boolean first = true;

        public Digest(String headText) {
            sha = sha256();
            // a head edited into something that is not an object still gets a digest, which then does not match
            boolean object = headText.endsWith("}");
            String open = object ? headText.substring(0, headText.length() - 1) : headText;
            update(open + (object && !open.equals("{") ? "," : "") + "\"" + SYSTEMS + "\":[");
        }

        /** The next system's canonical text. */
        public Digest system(String systemText) {
            update(first ? systemText : "," + systemText);
            first = false;
            return this;
        }

        /** The digest in lower-case hex, once every system was given. */
        public String hex() {
            update("]}");
            return HexFormat.of().formatHex(sha.digest());
        }

        private void update(String text) {
            sha.update(text.getBytes(StandardCharsets.UTF_8));
        }
    }

    /** The SHA-256 of the text's UTF-8 bytes, in lower-case hex. */
    public static String sha256(String text) {
        return HexFormat.of().formatHex(sha256().digest(text.getBytes(StandardCharsets.UTF_8)));
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
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
