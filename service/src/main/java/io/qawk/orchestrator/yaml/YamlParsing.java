package io.qawk.orchestrator.yaml;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import io.qawk.orchestrator.common.FieldError;
import io.qawk.orchestrator.common.InvalidRequestException;
import io.qawk.orchestrator.common.UnstorableTextException;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads one YAML document into a tree, defensively. Jackson reads SnakeYAML's event stream directly and skips
 * SnakeYAML's composer, where the alias, nesting and duplicate-key limits of {@link LoaderOptions} are enforced; so
 * those limits are set (for whoever reuses the options) and also enforced here while the tree is built:
 * <ul>
 * <li>at most {@value #MAX_BYTES} bytes (the HTTP limit is larger);</li>
 * <li>no anchors, aliases or tags: Qawk's dialect needs none, and refusing them rules out alias bombs and values
 * that silently mean something else;</li>
 * <li>a key appears once per mapping; nesting at most {@value #MAX_DEPTH} deep; exactly one document.</li>
 * </ul>
 * Every problem is an {@link InvalidRequestException} that says what and, where the parser knows it, where.
 */
final class YamlParsing {

    static final int MAX_BYTES = 256 * 1024;
    static final int MAX_DEPTH = 20;
    static final int MAX_ALIASES = 10;

    private static final YAMLFactory FACTORY = YAMLFactory.builder()
            .loaderOptions(loaderOptions())
            .disable(StreamReadFeature.STRICT_DUPLICATE_DETECTION) // reported below, with both positions
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxNestingDepth(MAX_DEPTH + 1)
                    .maxStringLength(MAX_BYTES)
                    .maxNumberLength(100)
                    .build())
            .build();

    private YamlParsing() {
    }

    static LoaderOptions loaderOptions() {
        LoaderOptions options = new LoaderOptions();
        options.setMaxAliasesForCollections(MAX_ALIASES);
        options.setNestingDepthLimit(MAX_DEPTH);
        options.setCodePointLimit(MAX_BYTES);
        options.setAllowDuplicateKeys(false);
        options.setAllowRecursiveKeys(false);
        return options;
    }

    /** The one document of the body; throws {@link InvalidRequestException} when it is not usable YAML. */
    static YamlDocument parse(byte[] body) {
        if (body != null && body.length > MAX_BYTES) {
            throw invalid("the document is " + body.length + " bytes; at most " + MAX_BYTES
                    + " bytes (256 KB) are accepted");
        }
        if (body == null || new String(body, StandardCharsets.UTF_8).isBlank()) {
            throw invalid("the body is empty; send one YAML document");
        }
        Map<String, YamlDocument.Position> positions = new HashMap<>();
        try (YAMLParser parser = (YAMLParser) FACTORY.createParser(body)) {
            JsonToken first = parser.nextToken();
            if (first == null) {
                throw invalid("the body holds no YAML document");
            }
            JsonNode root = new Builder(parser, positions).value(first, "", 0);
            JsonToken next = parser.nextToken();
            if (next != null) {
                throw invalid("the body holds more than one YAML document (another starts at "
                        + position(parser.currentTokenLocation()) + "); send exactly one");
            }
            return new YamlDocument(root, Map.copyOf(positions));
        } catch (InvalidRequestException e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            throw invalid(describe(e));
        }
    }

    private static String describe(Exception e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof MarkedYAMLException m) {
                Mark mark = m.getProblemMark() != null ? m.getProblemMark() : m.getContextMark();
                String problem = m.getProblem() != null ? m.getProblem() : m.getContext();
                String where = mark == null ? "" : " at line " + (mark.getLine() + 1) + ", column " + (mark.getColumn() + 1);
                String context = m.getContext() != null && m.getProblem() != null ? " (" + m.getContext() + ")" : "";
                return "the body is not valid YAML" + where + ": " + clean(problem) + context;
            }
        }
        if (e instanceof JsonProcessingException j) {
            String where = j.getLocation() == null ? "" : " at " + position(j.getLocation());
            return "the body is not usable YAML" + where + ": " + clean(j.getOriginalMessage());
        }
        return "the body is not usable YAML: " + clean(e.getMessage());
    }

    private static String clean(String message) {
        if (message == null) {
            return "unreadable";
        }
        String firstLine = message.strip().lines().findFirst().orElse("");
        return firstLine.length() > 200 ? firstLine.substring(0, 200) + "…" : firstLine;
    }

    static String position(JsonLocation location) {
        return location == null ? "an unknown place" : "line " + location.getLineNr() + ", column " + location.getColumnNr();
    }

    static InvalidRequestException invalid(String message) {
        return new InvalidRequestException(List.of(new FieldError("", message)));
    }

    /** Builds the tree from the token stream, recording positions and enforcing the limits. */
    private static final class Builder {
        private final YAMLParser parser;
        private final Map<String, YamlDocument.Position> positions;
        private final JsonNodeFactory nodes = JsonNodeFactory.instance;

        Builder(YAMLParser parser, Map<String, YamlDocument.Position> positions) {
            this.parser = parser;
            this.positions = positions;
        }

        JsonNode value(JsonToken token, String path, int depth) throws IOException {
            JsonLocation at = parser.currentTokenLocation();
            positions.putIfAbsent(path, new YamlDocument.Position(at.getLineNr(), at.getColumnNr()));
            String where = " at " + position(at) + (path.isEmpty() ? "" : " (" + path + ")");
            if (parser.isCurrentAlias()) {
                throw invalid("aliases (*" + parser.getText() + ") are not supported" + where
                        + "; write the value out");
            }
            if (parser.getCurrentAnchor() != null) {
                throw invalid("anchors (&" + parser.getCurrentAnchor() + ") are not supported" + where
                        + "; write the value out");
            }
            if (parser.getTypeId() != null) {
                throw invalid("tags (" + parser.getTypeId() + ") are not supported" + where);
            }
            switch (token) {
                case START_OBJECT:
                    return mapping(path, depth + 1, where);
                case START_ARRAY:
                    return sequence(path, depth + 1, where);
                case VALUE_STRING:
                    return nodes.textNode(storable(parser.getText(), path, where));
                case VALUE_NUMBER_INT:
                    return parser.getNumberType() == JsonParser.NumberType.BIG_INTEGER
                            ? nodes.numberNode(parser.getBigIntegerValue()) : nodes.numberNode(parser.getLongValue());
                case VALUE_NUMBER_FLOAT:
                    return nodes.numberNode(parser.getDecimalValue());
                case VALUE_TRUE:
                case VALUE_FALSE:
                    return nodes.booleanNode(token == JsonToken.VALUE_TRUE);
                case VALUE_NULL:
                    return nodes.nullNode();
                default:
                    throw invalid("unexpected " + token + where);
            }
        }

        /** Text the database can hold as it is: no U+0000 (YAML's "\\0" escape), no lone surrogate. */
        private static String storable(String text, String path, String where) {
            String problem = UnstorableTextException.whyUnstorable(text);
            if (problem != null) {
                throw new InvalidRequestException(List.of(new FieldError(path, "a text " + problem + where)));
            }
            return text;
        }

        private void depth(int depth, String where) {
            if (depth > MAX_DEPTH) {
                throw invalid("the document is nested more than " + MAX_DEPTH + " levels deep" + where);
            }
        }

        private ObjectNode mapping(String path, int depth, String where) throws IOException {
            depth(depth, where);
            ObjectNode object = nodes.objectNode();
            JsonToken t;
            while ((t = parser.nextToken()) != JsonToken.END_OBJECT) {
                if (t != JsonToken.FIELD_NAME) {
                    throw invalid("unexpected " + t + " at " + position(parser.currentTokenLocation()));
                }
                String key = storable(parser.currentName(), path, " at " + position(parser.currentTokenLocation()));
                String child = YamlPaths.key(path, key);
                JsonLocation keyAt = parser.currentTokenLocation();
                if (object.has(key)) {
                    throw invalid("the key '" + key + "' appears twice in one mapping (again at " + position(keyAt)
                            + (path.isEmpty() ? "" : ", in " + path) + ")");
                }
                positions.put(child, new YamlDocument.Position(keyAt.getLineNr(), keyAt.getColumnNr()));
                object.set(key, value(parser.nextToken(), child, depth));
            }
            return object;
        }

        private ArrayNode sequence(String path, int depth, String where) throws IOException {
            depth(depth, where);
            ArrayNode array = nodes.arrayNode();
            JsonToken t;
            while ((t = parser.nextToken()) != JsonToken.END_ARRAY) {
                if (t == null) {
                    throw invalid("the document ends inside a list" + where);
                }
                array.add(value(t, path + "[" + array.size() + "]", depth));
            }
            return array;
        }
    }
}
